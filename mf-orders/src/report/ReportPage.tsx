import {
  Button,
  ButtonGroup,
  Callout,
  Card,
  FormGroup,
  HTMLTable,
  NonIdealState,
  Spinner,
} from '@blueprintjs/core';
import {
  formatDisplayDateTime,
  formatMoney,
  formatNumber,
  MESSAGES,
  ORDER_STAGE_LABELS,
  todayLocal,
  type ReportFilters,
  type ReportGroup,
  type ReportSummary,
} from '@caravan/contracts';
import { DateInput, ReferenceSelect, toast } from '@caravan/ui-kit';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { downloadReport, useReportRowsQuery, useReportSummaryQuery } from './api';
import { ColumnChart, monthsBetween, RowChart, type Bar } from './Charts';
import {
  checkedFilters,
  filtersFromUrl,
  filtersToUrl,
  PERIOD_PRESETS,
  presetOf,
  presetPeriod,
  type FilterState,
} from './filters';
import './report.css';
import './texts';

type Metric = 'orders' | 'sum';
type T = ReturnType<typeof useTranslation>['t'];

const errorText = (error: unknown) => (error as { message?: string }).message ?? MESSAGES.somethingWentWrong;

/**
 * The client order report (spec §3, issue 19; docs/adr/0024-reports.md): the period, client and
 * operator filters (kept in the URL), the totals, charts by month and by stage, the per-client summary,
 * the orders page by page and the same report as an Excel file. What the caller may see is decided by
 * svc-orders; the page only asks.
 */
export default function ReportPage() {
  const { t } = useTranslation();
  const [search, setSearch] = useSearchParams();
  const today = todayLocal();
  const state = filtersFromUrl(search, today);
  const checked = checkedFilters(state);
  const update = (patch: Partial<FilterState>) =>
    setSearch(filtersToUrl({ ...state, ...patch }), { replace: true });
  return (
    <Card className="caravan-report" data-testid="report-page">
      <div className="caravan-list-toolbar">
        <h2 className="bp6-heading">{t('report.title')}</h2>
        {'filters' in checked && <DownloadButton filters={checked.filters} />}
      </div>
      <FilterBar state={state} today={today} update={update} />
      {'message' in checked ? (
        <Callout intent="danger" data-testid="report-filter-error">
          {checked.message}
        </Callout>
      ) : (
        <ReportBody filters={checked.filters} onClient={(id) => update({ client_id: id })} />
      )}
    </Card>
  );
}

function FilterBar(props: { state: FilterState; today: string; update(patch: Partial<FilterState>): void }) {
  const { t } = useTranslation();
  const { state, today, update } = props;
  const preset = presetOf(state, today);
  return (
    <div className="caravan-report-filters">
      <FormGroup label={t('report.from')} labelFor="report-from">
        <DateInput
          id="report-from"
          aria-label={t('report.from')}
          value={state.created_from}
          onChange={(v) => update({ created_from: v })}
        />
      </FormGroup>
      <FormGroup label={t('report.to')} labelFor="report-to">
        <DateInput
          id="report-to"
          aria-label={t('report.to')}
          value={state.created_to}
          onChange={(v) => update({ created_to: v })}
        />
      </FormGroup>
      <ButtonGroup>
        {PERIOD_PRESETS.map((p) => (
          <Button
            key={p}
            text={t(`report.period.${p}`)}
            active={preset === p}
            data-testid={`report-period-${p}`}
            onClick={() => update(presetPeriod(p, today))}
          />
        ))}
      </ButtonGroup>
      <FormGroup label={t('report.client')} labelFor="report-client">
        <ReferenceSelect
          id="report-client"
          entity="client"
          placeholder={t('report.anyClient')}
          value={state.client_id}
          onChange={(id) => update({ client_id: id })}
        />
      </FormGroup>
      <FormGroup label={t('report.operator')} labelFor="report-operator">
        <ReferenceSelect
          id="report-operator"
          entity="operator"
          placeholder={t('report.anyOperator')}
          value={state.operator_id}
          onChange={(id) => update({ operator_id: id })}
        />
      </FormGroup>
    </div>
  );
}

function DownloadButton({ filters }: { filters: ReportFilters }) {
  const { t } = useTranslation();
  const [making, setMaking] = useState(false);
  const download = async () => {
    setMaking(true);
    try {
      const name = await downloadReport(filters);
      void toast(t('report.downloaded', { name }), 'success');
    } catch (err) {
      void toast((err as Error).message, 'danger');
    } finally {
      setMaking(false);
    }
  };
  return (
    <Button
      icon="import"
      intent="primary"
      loading={making}
      text={making ? t('report.making') : t('report.download')}
      data-testid="report-download"
      onClick={() => void download()}
    />
  );
}

function ReportBody({ filters, onClient }: { filters: ReportFilters; onClient(id: number): void }) {
  const { t } = useTranslation();
  const { data, error, isFetching } = useReportSummaryQuery(filters);
  if (error) return <Callout intent="danger">{errorText(error)}</Callout>;
  if (!data) return <Spinner className="caravan-list-spinner" />;
  if (!data.total.order_count) return <NonIdealState icon="search" title={t('report.empty')} />;
  return (
    <div className={isFetching ? 'caravan-muted' : undefined}>
      <Figures total={data.total} />
      <Charts summary={data} />
      <ClientTable summary={data} onClient={onClient} />
      <RowsTable key={JSON.stringify(filters)} filters={filters} />
    </div>
  );
}

function Figures({ total }: { total: ReportGroup }) {
  const { t } = useTranslation();
  const figures: [string, string, string][] = [
    ['orders', t('report.orders'), formatNumber(total.order_count)],
    ['product', t('report.product'), formatMoney(total.product_price_sum)],
    ['delivery', t('report.delivery'), formatMoney(total.delivery_price_sum)],
    ['total', t('report.total'), formatMoney(total.total_sum)],
  ];
  return (
    <div className="caravan-report-figures">
      {figures.map(([key, label, value]) => (
        <div key={key} className="caravan-report-figure" data-testid={`report-total-${key}`}>
          <span className="caravan-muted">{label}</span>
          <strong>{value}</strong>
        </div>
      ))}
    </div>
  );
}

/** 'янв. 26' in the user's language for '2026-01'. */
function monthLabel(month: string, language: string) {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const name = new Intl.DateTimeFormat(language === 'en' ? 'en-GB' : 'ru-RU', {
    month: 'short',
    timeZone: 'UTC',
  }).format(new Date(Date.UTC(y, m - 1, 1)));
  return `${name} ${String(y % 100).padStart(2, '0')}`;
}

const barOf = (t: T, metric: Metric, key: string, label: string, g: ReportGroup | undefined): Bar => ({
  key,
  label,
  value: !g ? 0 : metric === 'orders' ? g.order_count : Number(g.total_sum),
  title: t('report.barTitle', {
    label,
    orders: formatNumber(g?.order_count ?? 0),
    sum: formatMoney(g?.total_sum ?? '0'),
  }),
});

function Charts({ summary }: { summary: ReportSummary }) {
  const { t, i18n } = useTranslation();
  const [metric, setMetric] = useState<Metric>('sum');
  const format = (v: number) =>
    metric === 'orders' ? formatNumber(Math.round(v)) : formatNumber(Math.round(v), { maxDigits: 0 });
  const byMonth = new Map(summary.by_month.map((g) => [g.month, g]));
  const months = summary.by_month.length
    ? monthsBetween(summary.by_month[0]!.month, summary.by_month.at(-1)!.month)
    : [];
  const monthBars = months.map((m) => barOf(t, metric, m, monthLabel(m, i18n.language), byMonth.get(m)));
  const stageBars = summary.by_stage.map((g) =>
    barOf(t, metric, g.stage, ORDER_STAGE_LABELS[g.stage] ?? g.stage, g),
  );
  return (
    <>
      <div className="caravan-report-section-head">
        <ButtonGroup>
          {(['sum', 'orders'] as const).map((m) => (
            <Button
              key={m}
              text={t(`report.metric.${m}`)}
              active={metric === m}
              data-testid={`report-metric-${m}`}
              onClick={() => setMetric(m)}
            />
          ))}
        </ButtonGroup>
      </div>
      <div className="caravan-report-charts">
        <div>
          <h3 className="bp6-heading">{t('report.byMonth')}</h3>
          <ColumnChart
            bars={monthBars}
            format={format}
            label={t('report.byMonth')}
            data-testid="report-chart-month"
          />
        </div>
        <div>
          <h3 className="bp6-heading">{t('report.byStage')}</h3>
          <RowChart
            bars={stageBars}
            format={format}
            label={t('report.byStage')}
            data-testid="report-chart-stage"
          />
        </div>
      </div>
    </>
  );
}

const Money = ({ value }: { value: string }) => <td className="caravan-money">{formatMoney(value, '')}</td>;

function ClientTable({ summary, onClient }: { summary: ReportSummary; onClient(id: number): void }) {
  const { t } = useTranslation();
  const more = summary.client_count - summary.clients.length;
  return (
    <section>
      <h3 className="bp6-heading">{t('report.clients')}</h3>
      <HTMLTable
        compact
        striped
        className="caravan-list-table caravan-report-table"
        data-testid="report-clients"
      >
        <thead>
          <tr>
            <th>{t('report.columns.client')}</th>
            <th className="caravan-money">{t('report.columns.orders')}</th>
            <th className="caravan-money">{t('report.columns.product')}</th>
            <th className="caravan-money">{t('report.columns.delivery')}</th>
            <th className="caravan-money">{t('report.columns.total')}</th>
          </tr>
        </thead>
        <tbody>
          {summary.clients.map((c) => (
            <tr key={c.client_id} data-testid="report-client-row">
              <td>
                <a
                  role="button"
                  title={t('report.filterByClient', { title: c.client_title })}
                  onClick={() => onClient(c.client_id)}
                >
                  {c.client_title}
                </a>
              </td>
              <td className="caravan-money">{formatNumber(c.order_count)}</td>
              <Money value={c.product_price_sum} />
              <Money value={c.delivery_price_sum} />
              <Money value={c.total_sum} />
            </tr>
          ))}
        </tbody>
      </HTMLTable>
      {more > 0 && <p className="caravan-muted">{t('report.moreClients', { count: more })}</p>}
    </section>
  );
}

/** One page of rows: its own cached query, keyed by its cursor; tells the table where the next one starts. */
function RowsPage(props: {
  filters: ReportFilters;
  cursor: string | null;
  onNext(cursor: string | null): void;
}) {
  const { t } = useTranslation();
  const { filters, cursor, onNext } = props;
  const { data, error } = useReportRowsQuery(cursor ? { ...filters, cursor } : filters);
  const next = data?.next_cursor;
  useEffect(() => {
    if (next !== undefined) onNext(next);
  }, [next, onNext]);
  if (error)
    return (
      <tr>
        <td colSpan={8} className="caravan-error">
          {errorText(error)}
        </td>
      </tr>
    );
  if (!data)
    return (
      <tr>
        <td colSpan={8}>
          <Spinner size={20} />
        </td>
      </tr>
    );
  return (
    <>
      {data.items.map((r) => (
        <tr key={r.id} data-testid="report-row">
          <td>
            <Link to={`/client_order/${r.id}`}>{r.title}</Link>
          </td>
          <td>{r.order_number}</td>
          <td>{r.client_title}</td>
          <td>{ORDER_STAGE_LABELS[r.stage] ?? r.stage}</td>
          <td>{formatDisplayDateTime(r.created_at)}</td>
          <Money value={r.product_price_sum} />
          <Money value={r.delivery_price_sum} />
          <Money value={r.price_sum} />
        </tr>
      ))}
      {!data.items.length && !cursor && (
        <tr>
          <td colSpan={8}>{t('report.empty')}</td>
        </tr>
      )}
    </>
  );
}

/** The orders, newest first, a page at a time ('показать ещё' adds the next page below). */
function RowsTable({ filters }: { filters: ReportFilters }) {
  const { t } = useTranslation();
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const [nexts, setNexts] = useState<Record<number, string | null>>({});
  const last = cursors.length - 1;
  const next = nexts[last];
  const c = (key: string) => t(`report.columns.${key}`);
  return (
    <section>
      <h3 className="bp6-heading">{t('report.rows')}</h3>
      <HTMLTable
        compact
        striped
        className="caravan-list-table caravan-report-table"
        data-testid="report-rows"
      >
        <thead>
          <tr>
            <th>{c('title')}</th>
            <th>{c('order_number')}</th>
            <th>{c('client')}</th>
            <th>{c('stage')}</th>
            <th>{c('created_at')}</th>
            <th className="caravan-money">{c('product')}</th>
            <th className="caravan-money">{c('delivery')}</th>
            <th className="caravan-money">{c('price')}</th>
          </tr>
        </thead>
        <tbody>
          {cursors.map((cursor, i) => (
            <RowsPage
              key={cursor ?? ''}
              filters={filters}
              cursor={cursor}
              onNext={(n) => setNexts((all) => (all[i] === n ? all : { ...all, [i]: n }))}
            />
          ))}
        </tbody>
      </HTMLTable>
      {next && (
        <Button
          text={t('report.more')}
          data-testid="report-more"
          onClick={() => setCursors((all) => [...all, next])}
        />
      )}
    </section>
  );
}
