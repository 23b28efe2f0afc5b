import {
  Button,
  Card,
  HTMLTable,
  InputGroup,
  Menu,
  MenuDivider,
  MenuItem,
  NonIdealState,
  PopoverNext,
  Spinner,
  Switch,
} from '@blueprintjs/core';
import { LIST_DEFAULT_ORDER, LIST_PAGE_SIZE, MESSAGES } from '@caravan/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import {
  useDocumentListQuery,
  useDocumentSaveMutation,
  type EntityListArgs,
  type EntityRow,
} from '../entityApi';
import { useCurrentUser, userIsAdmin } from '../session';
import { toast } from '../toaster';
import { useDebounced } from '../useDebounced';
import type { ColumnDef, EntityView } from '../view';
import { ConfirmDialog } from './ConfirmDialog';
import {
  FilterMenu,
  FilterPanel,
  filterConditions,
  filterableFields,
  type ActiveFilter,
} from './FilterPanel';

const CREATED_AT = { name: 'created_at', label: 'создан', kind: 'datetime' as const };

const cell = (row: EntityRow, c: ColumnDef, t: ReturnType<typeof useTranslation>['t']) =>
  c.render ? c.render(row, t) : String(row[c.key] ?? '');

/** One page of rows: its own cached query, so scrolling adds pages without refetching earlier ones. */
function ListPage(props: {
  entity: string;
  page: number;
  args: EntityListArgs;
  columns: ColumnDef[];
  onLoaded(key: string, page: number, count: number, total: number): void;
  onOpen?(row: EntityRow): void;
  onRestore?(row: EntityRow): void;
}) {
  const { t } = useTranslation();
  const { data, error } = useDocumentListQuery({
    entity: props.entity,
    params: { ...props.args, page: props.page, per_page: LIST_PAGE_SIZE },
  });
  const { onLoaded, page } = props;
  const key = JSON.stringify(props.args);
  useEffect(() => {
    if (data) onLoaded(key, page, data.items.length, data.total);
    else if (error) onLoaded(key, page, 0, -1);
  }, [data, error, onLoaded, page, key]);
  if (error)
    return (
      <tr>
        <td colSpan={props.columns.length + 1} className="caravan-error" data-testid="list-error">
          {(error as { message?: string }).message ?? MESSAGES.somethingWentWrong}
        </td>
      </tr>
    );
  return (
    <>
      {data?.items.map((row) => (
        <tr
          key={row.id}
          data-testid="document-row"
          className={props.onOpen ? 'caravan-row-link' : undefined}
          onClick={props.onOpen ? () => props.onOpen!(row) : undefined}
        >
          {props.columns.map((c) => (
            <td key={c.key}>{cell(row, c, t)}</td>
          ))}
          <td className="caravan-row-actions">
            {props.onRestore && (
              <Button
                size="small"
                icon="undo"
                text={t('list.restore')}
                onClick={(e) => {
                  e.stopPropagation();
                  props.onRestore!(row);
                }}
              />
            )}
          </td>
        </tr>
      ))}
    </>
  );
}

/**
 * The spec's document list: infinite scroll by pages of 10, sort menu, filter menu and panel (the raw
 * where box for admins), search, soft-delete toggle with restore, add button, 'ничего не найдено'.
 */
export function EntityListPage({ view }: { view: EntityView }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const user = useCurrentUser();
  const [search, setSearch] = useState('');
  const [deleted, setDeleted] = useState(false);
  const [order, setOrder] = useState(LIST_DEFAULT_ORDER);
  const [filters, setFilters] = useState<ActiveFilter[]>([]);
  const [raw, setRaw] = useState<{ open: boolean; text: string }>({ open: false, text: '' });
  const [restoring, setRestoring] = useState<EntityRow | null>(null);
  const [save] = useDocumentSaveMutation();
  const debouncedSearch = useDebounced(search, 300);
  const conditions = filterConditions(filters);
  const args: EntityListArgs = {
    deleted,
    order_by: order,
    ...(debouncedSearch ? { search: debouncedSearch } : {}),
    ...(conditions.length ? { where_param: conditions } : {}),
    ...(raw.text ? { where_raw: raw.text } : {}),
  };
  const argsKey = JSON.stringify(args);
  // Pages shown and pages loaded belong to one set of arguments: a new search starts again at page 1.
  const [shown, setShown] = useState({ key: argsKey, pages: 1 });
  const [loadedState, setLoadedState] = useState<{
    key: string;
    pages: Record<number, { count: number; total: number }>;
  }>({
    key: argsKey,
    pages: {},
  });
  const pages = shown.key === argsKey ? shown.pages : 1;
  const loaded = loadedState.key === argsKey ? loadedState.pages : {};
  const sentinel = useRef<HTMLDivElement>(null);

  const last = loaded[pages];
  const hasMore = last !== undefined && last.count === LIST_PAGE_SIZE && pages * LIST_PAGE_SIZE < last.total;
  useEffect(() => {
    const el = sentinel.current;
    if (!el || !hasMore) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) setShown({ key: argsKey, pages: pages + 1 });
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [hasMore, argsKey, pages]);

  const onLoaded = useCallback(
    (key: string, page: number, count: number, total: number) =>
      setLoadedState((l) => {
        const current = l.key === key ? l.pages : {};
        if (current[page]?.count === count && current[page]?.total === total && l.key === key) return l;
        return { key, pages: { ...current, [page]: { count, total } } };
      }),
    [],
  );
  const empty = loaded[1]?.total === 0;
  const canCreate = view.canCreate?.(user) ?? true;
  const sortable = view.columns.filter((c) => (view.sort ?? view.columns.map((x) => x.key)).includes(c.key));
  const filterFields = view.filters ?? [...filterableFields(view.fields), CREATED_AT];
  const [sortField, sortDir] = order.split(' ');
  const label = (key: string, fallback: string) => t(`fields.${key}`, { defaultValue: fallback });

  const restore = async (row: EntityRow) => {
    setRestoring(null);
    try {
      await save({ entity: view.entity, values: { id: row.id, deleted: false } }).unwrap();
      void toast(t('list.restored'), 'success');
    } catch (err) {
      void toast((err as { message?: string }).message ?? MESSAGES.somethingWentWrong, 'danger');
    }
  };

  return (
    <Card className="caravan-document-list">
      <div className="caravan-list-toolbar">
        <h2 className="bp6-heading">{t(view.title)}</h2>
        <InputGroup
          leftIcon="search"
          placeholder={t('common.search')}
          value={search}
          onValueChange={setSearch}
          aria-label={t('common.search')}
        />
        <PopoverNext
          placement="bottom-end"
          content={
            <Menu>
              <MenuDivider title={t('list.sortBy')} />
              {sortable.map((c) =>
                (['asc', 'desc'] as const).map((dir) => (
                  <MenuItem
                    key={`${c.key}-${dir}`}
                    icon={dir === 'asc' ? 'sort-asc' : 'sort-desc'}
                    text={`${label(c.key, c.label)} ${dir === 'asc' ? '↑' : '↓'}`}
                    active={sortField === c.key && sortDir === dir}
                    onClick={() => setOrder(`${c.key} ${dir}`)}
                  />
                )),
              )}
              <MenuItem
                icon="time"
                text={t('list.newestFirst')}
                onClick={() => setOrder(LIST_DEFAULT_ORDER)}
              />
            </Menu>
          }
        >
          <Button icon="sort" text={t('list.sort')} endIcon="caret-down" />
        </PopoverNext>
        <FilterMenu
          fields={filterFields}
          onAdd={(f) => setFilters((list) => [...list, f])}
          onRaw={userIsAdmin(user) ? () => setRaw((r) => ({ ...r, open: true })) : undefined}
        />
        <Switch
          label={t('common.deleted')}
          checked={deleted}
          onChange={(e) => setDeleted(e.currentTarget.checked)}
        />
        {canCreate && (
          <Button icon="add" intent="primary" text={t('common.add')} onClick={() => navigate(String(-1))} />
        )}
      </div>
      <FilterPanel
        filters={filters}
        onChange={setFilters}
        raw={raw.open ? { value: raw.text, onApply: (text) => setRaw({ open: true, text }) } : undefined}
      />
      {empty ? (
        <NonIdealState icon="search" title={t('common.nothingFound')} />
      ) : (
        <HTMLTable striped interactive={view.itemPage !== false} className="caravan-list-table">
          <thead>
            <tr>
              {view.columns.map((c) => (
                <th key={c.key}>{label(c.key, c.label)}</th>
              ))}
              <th />
            </tr>
          </thead>
          <tbody>
            {Array.from({ length: pages }, (_, i) => (
              <ListPage
                key={`${i + 1}-${argsKey}`}
                entity={view.entity}
                page={i + 1}
                args={args}
                columns={view.columns}
                onLoaded={onLoaded}
                onOpen={view.itemPage === false ? undefined : (row) => navigate(String(row.id))}
                onRestore={
                  deleted && (view.canDelete?.(user) ?? view.canEdit?.(user, {}) ?? true)
                    ? setRestoring
                    : undefined
                }
              />
            ))}
          </tbody>
        </HTMLTable>
      )}
      {loaded[pages] === undefined && !empty && <Spinner size={20} className="caravan-list-spinner" />}
      <div ref={sentinel} style={{ height: 1 }} />
      <ConfirmDialog
        isOpen={restoring !== null}
        text={t('list.restoreConfirm')}
        confirmText={t('list.restore')}
        onConfirm={() => restoring && void restore(restoring)}
        onCancel={() => setRestoring(null)}
      />
    </Card>
  );
}
