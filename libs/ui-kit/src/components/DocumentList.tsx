import { Button, Card, HTMLTable, InputGroup, NonIdealState, Spinner, Switch } from '@blueprintjs/core';
import { LIST_PAGE_SIZE, type ListResult } from '@caravan/contracts';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { EntityListArgs, EntityRow } from '../entityApi';
import { EditDialog, type FieldDef } from './EditDialog';

export type Column<Row> = { key: string; label: string; render?: (row: Row) => ReactNode };

type ListHook<Row> = (args: EntityListArgs) => {
  data?: ListResult<Row>;
  isFetching: boolean;
  error?: unknown;
};
type UpdateHook = () => readonly [
  (values: Record<string, unknown> & { id: number }) => { unwrap(): Promise<unknown> },
  unknown,
];

type Props<Row extends EntityRow> = {
  title: string;
  columns: Column<Row>[];
  useList: ListHook<Row>;
  /** With it, an add button opens the edit dialog for a new record (id -1). */
  create?: { useUpdate: UpdateHook; fields: FieldDef[]; initial?: Record<string, unknown> };
};

function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

/** One page of rows: its own cached query, so scrolling adds pages without refetching earlier ones. */
function ListPage<Row extends EntityRow>(props: {
  page: number;
  args: EntityListArgs;
  columns: Column<Row>[];
  useList: ListHook<Row>;
  onLoaded(page: number, count: number, total: number): void;
}) {
  const { data, error } = props.useList({ ...props.args, page: props.page, per_page: LIST_PAGE_SIZE });
  const { onLoaded, page } = props;
  useEffect(() => {
    if (data) onLoaded(page, data.items.length, data.total);
  }, [data, onLoaded, page]);
  if (error)
    return (
      <tr>
        <td colSpan={props.columns.length} className="bp6-text-muted">
          {(error as { message?: string }).message}
        </td>
      </tr>
    );
  return (
    <>
      {data?.items.map((row) => (
        <tr key={row.id} data-testid="document-row">
          {props.columns.map((c) => (
            <td key={c.key}>{c.render ? c.render(row) : String(row[c.key] ?? '')}</td>
          ))}
        </tr>
      ))}
    </>
  );
}

/**
 * The spec's document list: infinite scroll by pages of 10, a search field, a soft-delete toggle,
 * an add button and 'ничего не найдено' when empty.
 */
export function DocumentList<Row extends EntityRow>({ title, columns, useList, create }: Props<Row>) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [deleted, setDeleted] = useState(false);
  const [pages, setPages] = useState(1);
  const [loaded, setLoaded] = useState<Record<number, { count: number; total: number }>>({});
  const [editing, setEditing] = useState(false);
  const debouncedSearch = useDebounced(search, 300);
  const args: EntityListArgs = { deleted, ...(debouncedSearch ? { search: debouncedSearch } : {}) };
  const sentinel = useRef<HTMLDivElement>(null);
  const [update] = create?.useUpdate() ?? [null];

  useEffect(() => {
    setPages(1);
    setLoaded({});
  }, [debouncedSearch, deleted]);

  const last = loaded[pages];
  const hasMore = last !== undefined && last.count === LIST_PAGE_SIZE && pages * LIST_PAGE_SIZE < last.total;
  useEffect(() => {
    const el = sentinel.current;
    if (!el || !hasMore) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) setPages((p) => p + 1);
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [hasMore]);

  const onLoaded = useRef((page: number, count: number, total: number) =>
    setLoaded((l) =>
      l[page]?.count === count && l[page]?.total === total ? l : { ...l, [page]: { count, total } },
    ),
  ).current;
  const empty = loaded[1]?.total === 0;

  return (
    <Card className="caravan-document-list">
      <div style={{ display: 'flex', gap: 12, alignItems: 'center', marginBottom: 12 }}>
        <h2 className="bp6-heading" style={{ margin: 0, flex: 1 }}>
          {title}
        </h2>
        <InputGroup
          leftIcon="search"
          placeholder={t('common.search')}
          value={search}
          onValueChange={setSearch}
          aria-label={t('common.search')}
        />
        <Switch
          label={t('common.deleted')}
          checked={deleted}
          onChange={(e) => setDeleted(e.currentTarget.checked)}
          style={{ margin: 0 }}
        />
        {create && (
          <Button icon="add" intent="primary" text={t('common.add')} onClick={() => setEditing(true)} />
        )}
      </div>
      {empty ? (
        <NonIdealState icon="search" title={t('common.nothingFound')} />
      ) : (
        <HTMLTable striped interactive style={{ width: '100%' }}>
          <thead>
            <tr>
              {columns.map((c) => (
                <th key={c.key}>{t(`fields.${c.key}`, { defaultValue: c.label })}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {Array.from({ length: pages }, (_, i) => (
              <ListPage
                key={`${i + 1}-${deleted}-${debouncedSearch}`}
                page={i + 1}
                args={args}
                columns={columns}
                useList={useList}
                onLoaded={onLoaded}
              />
            ))}
          </tbody>
        </HTMLTable>
      )}
      {loaded[pages] === undefined && !empty && <Spinner size={20} style={{ margin: 12 }} />}
      <div ref={sentinel} style={{ height: 1 }} />
      {create && update && (
        <EditDialog
          title={`${title}: ${t('common.newRecord')}`}
          fields={create.fields}
          initial={create.initial}
          isOpen={editing}
          onClose={() => setEditing(false)}
          onSubmit={(values) => update({ id: -1, ...values }).unwrap()}
        />
      )}
    </Card>
  );
}
