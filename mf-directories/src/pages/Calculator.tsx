import { Button, Card, FormGroup, H3, HTMLTable, NonIdealState } from '@blueprintjs/core';
import {
  CalculateParams,
  COUNTRY,
  describeIssues,
  formatMoney,
  formatNumber,
  formatPercent,
  MESSAGES,
  ROUTE_TYPE_LABELS,
  type RouteQuote,
} from '@caravan/contracts';
import {
  baseApi,
  clearToasts,
  FieldInput,
  invalidFields,
  toast,
  type FieldDef,
  type Values,
} from '@caravan/ui-kit';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';

const calculatorApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    routeCalculate: build.mutation<RouteQuote[], CalculateParams>({
      query: (params) => ({ method: 'logistic_route_calculate', params }),
    }),
  }),
});

const FIELDS: FieldDef[] = [
  {
    name: 'from_city_id',
    label: 'calculator.from',
    kind: 'ref',
    entity: 'city',
    where: () => [{ field: 'country_id', op: '=', value: COUNTRY.CHINA }],
  },
  {
    name: 'to_warehouse_id',
    label: 'calculator.to',
    kind: 'ref',
    entity: 'warehouse_point',
    where: () => [{ field: 'type', op: '=', value: 'arrival' }],
  },
  {
    name: 'logistic_product_type_id',
    label: 'calculator.productType',
    kind: 'ref',
    entity: 'logistic_product_type',
  },
  { name: 'weight', label: 'calculator.weight', kind: 'decimal' },
  { name: 'volume', label: 'calculator.volume', kind: 'decimal' },
];

/** The quote's columns; the price right after the tariff, so it is seen first on any screen. */
const QUOTE_COLUMNS = ['route', 'price', 'operator', 'days', 'density', 'rate', 'commission'] as const;

/**
 * Tariff calculator /logistic_route/widget: from a Chinese city to an arrival warehouse, for a product
 * type, weight and volume → the active routes that carry it, priced from their density tables in
 * dollars, with days and the buyout commission.
 */
export default function Calculator() {
  const { t, i18n } = useTranslation();
  const [form, setForm] = useState<Values>({});
  const [calculate, { isLoading }] = calculatorApi.useRouteCalculateMutation();
  // the quotes of the last successful calculation; any refusal clears them (no stale result on screen)
  const [data, setData] = useState<RouteQuote[] | null>(null);

  const refuse = (message: string, intent: 'warning' | 'danger') => {
    setData(null);
    void toast(message, intent, 5000, 'calculator');
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const label = (f: FieldDef) => t(f.label);
    const invalid = invalidFields(FIELDS, form, { label, language: i18n.language });
    if (invalid.length) return refuse(invalid.join('; '), 'warning');
    const parsed = CalculateParams.safeParse(form);
    if (!parsed.success) {
      const labels = { labels: Object.fromEntries(FIELDS.map((f) => [f.name, label(f)])) };
      return refuse(describeIssues(parsed.error.issues, form, labels, i18n.language), 'warning');
    }
    try {
      setData(await calculate(parsed.data).unwrap());
      void clearToasts('calculator');
    } catch (err) {
      refuse((err as { message?: string }).message ?? MESSAGES.somethingWentWrong, 'danger');
    }
  };

  const quoteCell = (column: (typeof QUOTE_COLUMNS)[number], q: RouteQuote) => {
    switch (column) {
      case 'route':
        return `${q.title} (${t(`enums.type.${q.type}`, { defaultValue: ROUTE_TYPE_LABELS[q.type] })})`;
      case 'price':
        return <strong>{formatMoney(q.price_usd, '$')}</strong>;
      case 'operator':
        return q.operator_title;
      case 'days':
        return t('calculator.daysRange', { from: q.days_from ?? '?', to: q.days_to ?? '?' });
      case 'density':
        return formatNumber(q.density);
      case 'rate':
        return `${formatMoney(q.rate, '$')} / ${q.unit === 'kg' ? t('calculator.perKg') : t('calculator.perM3')}`;
      case 'commission':
        return formatPercent(q.buyout_commission);
    }
  };

  return (
    <Card className="caravan-calculator">
      <H3>{t('pages.calculator')}</H3>
      <form onSubmit={submit} className="caravan-form-grid">
        {FIELDS.map((f) => (
          <FormGroup key={f.name} label={t(f.label)} labelInfo="*" labelFor={`calc-${f.name}`}>
            <FieldInput
              id={`calc-${f.name}`}
              field={f}
              value={form[f.name]}
              values={form}
              onChange={(value) => setForm((prev) => ({ ...prev, [f.name]: value }))}
              onPatch={(patch) => setForm((prev) => ({ ...prev, ...patch }))}
            />
          </FormGroup>
        ))}
        <div className="caravan-item-actions">
          <Button
            type="submit"
            intent="primary"
            icon="calculator"
            text={t('calculator.calculate')}
            loading={isLoading}
          />
        </div>
      </form>
      {data &&
        (data.length === 0 ? (
          <NonIdealState icon="search" title={t('common.nothingFound')} />
        ) : (
          <HTMLTable striped className="caravan-list-table caravan-stack-table" data-testid="quotes">
            <thead>
              <tr>
                {QUOTE_COLUMNS.map((c) => (
                  <th key={c}>{t(`calculator.${c}`)}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {data.map((q) => (
                <tr key={q.logistic_route_id} data-testid="quote">
                  {QUOTE_COLUMNS.map((c) => (
                    // the column's name goes along: on a phone each quote is a card of «name: value» lines
                    <td key={c} data-label={t(`calculator.${c}`)}>
                      {quoteCell(c, q)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        ))}
    </Card>
  );
}
