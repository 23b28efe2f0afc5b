import {
  Button,
  ButtonGroup,
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
import { LIST_DEFAULT_ORDER, LIST_PAGE_SIZE, MESSAGES, type ListResult } from '@caravan/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fieldLabel } from '../i18n';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import {
  useDocumentListQuery,
  useDocumentSaveMutation,
  type EntityListArgs,
  type EntityRow,
} from '../entityApi';
import { rememberListUrl } from '../listUrl';
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
  filtersFromUrl,
  filtersToUrl,
  type ActiveFilter,
} from './FilterPanel';

const CREATED_AT = { name: 'created_at', label: 'создан', kind: 'datetime' as const };

const cell = (row: EntityRow, c: ColumnDef, t: ReturnType<typeof useTranslation>['t']) =>
  c.render ? c.render(row, t) : String(row[c.key] ?? '');

/** What one loaded page tells the list: where the next one starts, and the count (first page). */
type Loaded = {
  next: string | null;
  count?: Pick<ListResult<unknown>, 'total' | 'total_exact' | 'total_estimate'>;
};

/** One page of rows: its own cached query (keyed by its cursor), so scrolling adds pages without refetching earlier ones. */
function ListPage(props: {
  entity: string;
  index: number;
  cursor: string | undefined;
  args: EntityListArgs;
  columns: ColumnDef[];
  onLoaded(key: string, index: number, loaded: Loaded): void;
  onOpen?(row: EntityRow): void;
  onRestore?(row: EntityRow): void;
  /** offered under a refusal: drops the admin's hand-written condition */
  onResetRaw?(): void;
}) {
  const { t } = useTranslation();
  const { data, error } = useDocumentListQuery({
    entity: props.entity,
    params: { ...props.args, per_page: LIST_PAGE_SIZE, ...(props.cursor ? { cursor: props.cursor } : {}) },
  });
  const { onLoaded, index } = props;
  const key = JSON.stringify(props.args);
  useEffect(() => {
    if (data)
      onLoaded(key, index, {
        next: data.next_cursor ?? null,
        count: { total: data.total, total_exact: data.total_exact, total_estimate: data.total_estimate },
      });
    else if (error) onLoaded(key, index, { next: null });
  }, [data, error, onLoaded, index, key]);
  if (error)
    return (
      <tr>
        <td colSpan={props.columns.length + 1} className="caravan-error">
          <span data-testid="list-error">
            {(error as { message?: string }).message ?? MESSAGES.somethingWentWrong}
          </span>
          {props.onResetRaw && (
            <Button
              className="caravan-error-action"
              size="small"
              icon="cross"
              text={t('list.resetRawWhere')}
              onClick={props.onResetRaw}
            />
          )}
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
            <td key={c.key} data-label={fieldLabel(t, { name: c.key, label: c.label }, props.entity)}>
              {cell(row, c, t)}
            </td>
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
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const user = useCurrentUser();
  // the server refuses a non-admin's filter or sort on a confidential column: not offered at all
  const hidden = new Set(
    userIsAdmin(user) ? [] : view.fields.filter((f) => f.confidential).map((f) => f.name),
  );
  const filterFields = (view.filters ?? [...filterableFields(view.fields), CREATED_AT]).filter(
    (f) => !hidden.has(f.name),
  );
  // search, sort, filters and the deleted toggle live in the URL: Back from an item restores them
  const [url, setUrl] = useSearchParams();
  const location = useLocation();
  useEffect(() => {
    rememberListUrl(location.pathname, location.pathname + location.search);
  }, [location.pathname, location.search]);
  const order = url.get('sort') ?? LIST_DEFAULT_ORDER;
  const deleted = url.get('deleted') === '1';
  const filters = filtersFromUrl(url.get('filters'), filterFields);
  const rawText = url.get('where') ?? '';
  const update = useCallback(
    (patch: Record<string, string | null>) =>
      setUrl(
        (current) => {
          const next = new URLSearchParams(current);
          for (const [k, v] of Object.entries(patch))
            if (v === null || v === '') next.delete(k);
            else next.set(k, v);
          return next;
        },
        { replace: true },
      ),
    [setUrl],
  );
  const [search, setSearch] = useState(url.get('q') ?? '');
  const debouncedSearch = useDebounced(search, 300);
  useEffect(() => {
    if ((url.get('q') ?? '') !== debouncedSearch) update({ q: debouncedSearch });
  }, [debouncedSearch, url, update]);
  const setOrder = (value: string) => update({ sort: value === LIST_DEFAULT_ORDER ? null : value });
  const setDeleted = (value: boolean) => update({ deleted: value ? '1' : null });
  const setFilters = (list: ActiveFilter[]) => update({ filters: filtersToUrl(list) });
  const [rawOpen, setRawOpen] = useState(rawText !== '');
  const [restoring, setRestoring] = useState<EntityRow | null>(null);
  const [opened, setOpened] = useState<EntityRow | null>(null);
  const RowDialog = view.rowDialog;
  const openRow = RowDialog
    ? setOpened
    : view.itemPage === false
      ? undefined
      : (row: EntityRow) => navigate(String(row.id));
  const [save] = useDocumentSaveMutation();
  const scope = view.scopes?.find((x) => x.key === url.get('scope')) ?? view.scopes?.[0];
  const conditions = [...filterConditions(filters), ...(scope?.where(user) ?? [])];
  const args: EntityListArgs = {
    deleted,
    order_by: order,
    ...(debouncedSearch ? { search: debouncedSearch } : {}),
    ...(conditions.length ? { where_param: conditions } : {}),
    ...(rawText ? { where_raw: rawText } : {}),
  };
  const argsKey = JSON.stringify(args);
  // Pages shown and loaded belong to one set of arguments: a new search starts again at the first page.
  const [shown, setShown] = useState({ key: argsKey, pages: 1 });
  const [loadedState, setLoadedState] = useState<{ key: string; pages: Record<number, Loaded> }>({
    key: argsKey,
    pages: {},
  });
  const pages = shown.key === argsKey ? shown.pages : 1;
  const loaded = loadedState.key === argsKey ? loadedState.pages : {};
  const sentinel = useRef<HTMLDivElement>(null);

  const hasMore = Boolean(loaded[pages - 1]?.next);
  useEffect(() => {
    const el = sentinel.current;
    if (!el || !hasMore) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) setShown({ key: argsKey, pages: pages + 1 });
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [hasMore, argsKey, pages]);

  // the last count shown stays while a refused condition shows its message instead of rows
  const [lastCount, setLastCount] = useState<Loaded['count']>();
  const onLoaded = useCallback((key: string, index: number, page: Loaded) => {
    if (index === 0 && page.count) setLastCount(page.count);
    setLoadedState((l) => {
      const current = l.key === key ? l.pages : {};
      if (l.key === key && JSON.stringify(current[index]) === JSON.stringify(page)) return l;
      return { key, pages: { ...current, [index]: page } };
    });
  }, []);
  const empty = loaded[0]?.count?.total === 0;
  const count = loaded[0] ? (loaded[0].count ?? lastCount) : undefined;
  const canCreate = view.canCreate?.(user) ?? true;
  const sortable = view.columns.filter(
    (c) => (view.sort ?? view.columns.map((x) => x.key)).includes(c.key) && !hidden.has(c.key),
  );
  const [sortField, sortDir] = order.split(' ');
  const label = (key: string, fallback: string) => fieldLabel(t, { name: key, label: fallback }, view.entity);
  const sortColumn = sortable.find((c) => c.key === sortField);
  const sortText =
    order === LIST_DEFAULT_ORDER || !sortColumn
      ? t('list.newestFirst')
      : `${label(sortColumn.key, sortColumn.label)} ${sortDir === 'asc' ? '↑' : '↓'}`;
  const number = (n: number) => new Intl.NumberFormat(i18n.language === 'en' ? 'en-US' : 'ru-RU').format(n);
  const countText = !count
    ? ''
    : count.total_exact
      ? t('list.count', { count: count.total, n: number(count.total) })
      : count.total_estimate
        ? t('list.countAbout', { n: number(count.total_estimate) })
        : t('list.countMore', { n: number(count.total - 1) });

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
        <span className="bp6-text-muted" data-testid="list-count">
          {countText}
        </span>
        {view.searchable !== false && (
          <InputGroup
            leftIcon="search"
            placeholder={t('common.search')}
            value={search}
            onValueChange={setSearch}
            aria-label={t('common.search')}
          />
        )}
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
          <Button
            icon="sort"
            text={`${t('list.sort')}: ${sortText}`}
            endIcon="caret-down"
            data-testid="list-sort"
          />
        </PopoverNext>
        {view.scopes && (
          <ButtonGroup>
            {view.scopes.map((x, i) => (
              <Button
                key={x.key}
                text={t(x.label)}
                active={x.key === scope?.key}
                data-testid={`list-scope-${x.key}`}
                onClick={() => update({ scope: i === 0 ? null : x.key })}
              />
            ))}
          </ButtonGroup>
        )}
        <FilterMenu
          fields={filterFields}
          onAdd={(f) => setFilters([...filters, f])}
          onRaw={userIsAdmin(user) ? () => setRawOpen(true) : undefined}
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
        raw={
          rawOpen
            ? { value: rawText, fields: filterFields, onApply: (text) => update({ where: text }) }
            : undefined
        }
      />
      {empty ? (
        <NonIdealState icon="search" title={t('common.nothingFound')} />
      ) : (
        <HTMLTable
          striped
          interactive={openRow !== undefined}
          // on a phone each row is a card of «column: value», nothing beyond the screen's edge
          className="caravan-list-table caravan-stack-table"
        >
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
                key={`${i}-${argsKey}`}
                entity={view.entity}
                index={i}
                cursor={i === 0 ? undefined : (loaded[i - 1]?.next ?? undefined)}
                args={args}
                columns={view.columns}
                onLoaded={onLoaded}
                onOpen={openRow}
                onResetRaw={rawText ? () => update({ where: null }) : undefined}
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
      {loaded[pages - 1] === undefined && !empty && <Spinner size={20} className="caravan-list-spinner" />}
      <div ref={sentinel} style={{ height: 1 }} />
      {RowDialog && opened && <RowDialog row={opened} onClose={() => setOpened(null)} />}
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
