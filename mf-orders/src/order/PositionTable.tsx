import {
  Button,
  ButtonGroup,
  Card,
  Checkbox,
  H5,
  HTMLTable,
  Icon,
  Menu,
  MenuItem,
  PopoverNext,
  Tooltip,
} from '@blueprintjs/core';
import {
  BULK_MESSAGES,
  BULK_STAGE_ACTIONS,
  bulkStageProblems,
  CONSOLIDATION_MODE_COLUMNS,
  clientOrderPosition,
  DEFAULT_DOC_COLUMNS,
  formatMoney,
  formatNumber,
  movableOrderStagesFor,
  ORDER_MESSAGES,
  POSITION_ACTION_LABELS,
  POSITION_COLUMNS,
  positionActionsFor,
  positionDataEditable,
  positionWarnings,
  sumMoney,
  type BulkStageAction,
  type BuyoutType,
  type OrderStage,
  type PositionAction,
  type PositionColumn,
  type PositionFacts,
  todayLocal,
  BULK_POSITION_STEPS,
  type BulkPositionStep,
} from '@caravan/contracts';
import {
  ConfirmDialog,
  EditDialog,
  fieldsOf,
  rolesOf,
  toast,
  useCurrentUser,
  useDocumentSaveMutation,
  userIsStaff,
  type EntityRow,
  type FieldDef,
  type Values,
} from '@caravan/ui-kit';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { POSITION_PAGE_SIZE, useOrderCallMutation, usePositionsOfOrder } from './api';
import { ClipboardDialog } from './bulk/ClipboardDialog';
import { ColumnPicker } from './bulk/ColumnPicker';
import { ConsolidationDialog } from './bulk/ConsolidationDialog';
import { ExcelImportDialog } from './bulk/ExcelImportDialog';
import { SplitDialog } from './bulk/SplitDialog';
import { COLUMNS } from './positionColumns';
import { OzonCell, useOzonColumn } from './carrier/OzonPanel';

const P = clientOrderPosition.labels;
const today = () => todayLocal();

type Mode = 'item' | 'consolidation' | 'doc';
type BulkDialog = 'import' | 'paste' | 'edit' | 'move' | 'split' | 'consolidate' | BulkStageAction;

/** The add-position dialog: what a client knows of a product (spec §2 position screen, first fields). */
export const NEW_POSITION_FIELDS: FieldDef[] = fieldsOf(clientOrderPosition, {
  title: {},
  link: {},
  waybill: {},
  type_id: {},
  price_cny: { kind: 'decimal' },
  amount: { kind: 'decimal' },
  weight: { kind: 'decimal' },
  product_images: { kind: 'images' },
});

/** The dialogs some actions ask through: the expected date, the shipment record (spec §4). */
const ACTION_FIELDS: Partial<Record<PositionAction, FieldDef[]>> = {
  warehouse_waiting: [
    { name: 'receive_date', label: P.to_consolidation_warehouse_delivery_date, kind: 'date', required: true },
  ],
  warehouse_received: [
    { name: 'date', label: 'дата', kind: 'date', required: true },
    { name: 'amount', label: 'кол-во коробок', kind: 'integer', required: true },
    { name: 'transporter', label: 'перевозчик' },
    { name: 'cost', label: 'стоимость', kind: 'decimal' },
    { name: 'comment', label: 'комментарий' },
  ],
};

type Pending = { position: EntityRow; action: PositionAction };

/** The receive dialog's values as the shipment record both the single and the bulk action take. */
const receiveRecordOf = (v: Values) => ({
  date: v.date,
  amount: v.amount,
  transporter: v.transporter ?? '',
  cost: v.cost ?? null,
  comment: v.comment ?? '',
});

/** Bulk edit (spec §5): only the non-empty fields are sent; suppliers are the order's client's. */
const bulkEditFields = (clientId: number): FieldDef[] => [
  { name: 'waybill', label: P.waybill },
  { name: 'type_id', label: P.type_id, kind: 'ref', entity: 'logistic_product_type' },
  {
    name: 'provider_id',
    label: P.provider_id,
    kind: 'ref',
    entity: 'provider',
    where: () => [{ field: 'client_id', op: '=', value: clientId }],
  },
  { name: 'link', label: P.link },
];

/**
 * The order's positions (spec §2) in three modes: item (every column, selection, bulk tools, staff
 * actions, delete), consolidation (number, waybill, amount, sent, date) and doc (the user's chosen
 * columns); the bottom line with the count and the buyout total.
 */
export function PositionTable({
  order,
  orderId,
  editable,
}: {
  order: Values;
  orderId: number;
  editable: boolean;
}) {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const staff = userIsStaff(user);
  const [save] = useDocumentSaveMutation();
  const [call] = useOrderCallMutation();
  const [adding, setAdding] = useState(false);
  const [pending, setPending] = useState<Pending | null>(null);
  const [removing, setRemoving] = useState<EntityRow | null>(null);
  const [mode, setMode] = useState<Mode>('item');
  const [selected, setSelected] = useState<number[]>([]);
  const [dialog, setDialog] = useState<BulkDialog | null>(null);
  const [page, setPage] = useState(1);
  const { data } = usePositionsOfOrder(orderId, false, page);
  const ozonColumn = useOzonColumn(orderId, order) && mode === 'item';
  const offset = (page - 1) * POSITION_PAGE_SIZE;
  const morePages = (data?.items.length ?? 0) === POSITION_PAGE_SIZE;
  const rows = data?.items ?? [];
  const draft = order.stage === 'draft';
  const canAdd = editable && draft;
  const positionsEditable = positionDataEditable(String(order.stage), rolesOf(user));
  const canDelete = editable && positionsEditable;
  const canEditPositions = editable && positionsEditable;
  const exchangeable = editable && movableOrderStagesFor(rolesOf(user)).includes(order.stage as OrderStage);
  const rate = order.rate_cny as string | null;
  const buyoutTotal = sumMoney(rows.map((r) => r.buyout_price_rur as string | null));
  const chosen = rows.filter((r) => selected.includes(r.id));
  const inSource = (action: BulkStageAction) =>
    chosen.filter((r) => r.stage === BULK_STAGE_ACTIONS[action]).length;
  const stageActions = staff
    ? (Object.keys(BULK_STAGE_ACTIONS) as BulkStageAction[]).filter((a) =>
        chosen.some((r) => r.stage === BULK_STAGE_ACTIONS[a]),
      )
    : [];
  const saved = user?.options.settings.position_doc_columns as PositionColumn[] | undefined;
  const docColumns = saved?.length ? saved : DEFAULT_DOC_COLUMNS;
  const columns: readonly PositionColumn[] = useMemo(
    () =>
      mode === 'item'
        ? POSITION_COLUMNS.filter((c) => c !== 'consolidation_sent')
        : mode === 'consolidation'
          ? CONSOLIDATION_MODE_COLUMNS
          : docColumns,
    [mode, docColumns],
  );
  const selectable =
    mode === 'item' && editable && rows.length > 0 && (staff || canEditPositions || exchangeable);
  const context = { order, rows, rate, t };
  const chosenIds = useMemo(() => new Set(selected), [selected]);
  // a row's cells and warnings are computed once per change of the rows, not on every tick of a checkbox
  const body = useMemo(
    () =>
      rows.map((r, i) => ({
        cells: columns.map((c) => (
          <td key={c} className={COLUMNS[c].numeric ? 'caravan-number' : undefined}>
            {COLUMNS[c].cell(r, offset + i, { order, rows, rate, t })}
          </td>
        )),
        warnings: positionWarnings(
          r as unknown as PositionFacts,
          order.buyout_type as BuyoutType,
          rolesOf(user),
        ),
      })),
    [rows, columns, order, rate, t, user, offset],
  );

  const toggle = (id: number) =>
    setSelected((prev) => (prev.includes(id) ? prev.filter((x) => x !== id) : [...prev, id]));
  const act = async (position: EntityRow, action: PositionAction, extra: Values = {}) => {
    try {
      await call({
        method: 'client_order_position_action',
        params: { id: position.id, action, ...extra },
      }).unwrap();
      void toast(ORDER_MESSAGES.done, 'success');
    } catch (err) {
      void toast((err as { message: string }).message, 'danger');
      throw err;
    }
  };
  const start = (position: EntityRow, action: PositionAction) => {
    if (
      ACTION_FIELDS[action] ||
      (action.startsWith('buyout_done') && order.product_payment_state === 'not_paid')
    )
      setPending({ position, action });
    else void act(position, action).catch(() => undefined);
  };
  const remove = async (position: EntityRow) => {
    setRemoving(null);
    try {
      await save({ entity: 'client_order_position', values: { id: position.id, deleted: true } }).unwrap();
      void toast(ORDER_MESSAGES.positionDeleted(String(position.title)), 'success');
    } catch (err) {
      void toast((err as { message: string }).message, 'danger');
    }
  };
  /** Opens a tool on the selection: nothing selected is refused with the spec's message. */
  const withSelection = (tool: BulkDialog, emptyMessage: string) => () => {
    if (!selected.length) return void toast(emptyMessage, 'warning');
    setDialog(tool);
  };
  const startStage = (action: BulkStageAction) => {
    const { problem } = bulkStageProblems(chosen as never, action, {
      receive_date: today(),
      receive_record: { date: today(), amount: 1 },
    });
    if (problem) return void toast(problem, 'warning');
    setDialog(action);
  };
  const bulk = async (
    method:
      | 'client_order_position_bulk_update'
      | 'client_order_position_bulk_action'
      | 'client_order_position_bulk_step'
      | 'client_order_position_move',
    params: Values,
  ) => {
    const result = (await call({ method, params: { ids: selected, ...params } }).unwrap()) as {
      message: string;
    };
    setSelected([]);
    return result;
  };

  /** 'проверено' and 'выкуплено' on the selection: the positions able to take the step take it at once. */
  const takers = (step: BulkPositionStep) =>
    chosen.filter((r) => positionActionsFor(r as never).includes(step)).length;
  const stepSelection = async (step: BulkPositionStep) => {
    try {
      const { message } = await bulk('client_order_position_bulk_step', { action: step });
      void toast(message, 'success');
    } catch (err) {
      void toast((err as { message: string }).message, 'danger');
    }
  };

  return (
    <Card className="caravan-order-section" data-testid="position-table">
      <div className="caravan-item-header">
        <H5>{t('orders.positions')}</H5>
        <div className="caravan-mode-switch">
          {mode === 'doc' && <ColumnPicker chosen={docColumns} context={context} />}
          <ButtonGroup>
            {(['item', 'consolidation', 'doc'] as Mode[]).map((m) => (
              <Button
                key={m}
                size="small"
                text={t(`orders.bulk.mode.${m}`)}
                active={mode === m}
                onClick={() => setMode(m)}
              />
            ))}
          </ButtonGroup>
        </div>
      </div>
      {mode === 'item' && editable && (
        <div className="caravan-bulk-toolbar" data-testid="bulk-toolbar">
          {canAdd && (
            <>
              <Button
                icon="add"
                intent="primary"
                text={t('orders.addPosition')}
                onClick={() => setAdding(true)}
              />
              <Button icon="import" text={t('orders.bulk.importExcel')} onClick={() => setDialog('import')} />
              <Button icon="clipboard" text={t('orders.bulk.paste')} onClick={() => setDialog('paste')} />
            </>
          )}
          {canEditPositions && rows.length > 0 && (
            <Button
              icon="edit"
              text={t('orders.bulk.edit', { count: selected.length })}
              onClick={withSelection('edit', BULK_MESSAGES.selectForEdit)}
            />
          )}
          {staff &&
            BULK_POSITION_STEPS.filter((step) => takers(step) > 0).map((step) => (
              <Button
                key={step}
                icon="tick"
                data-testid={`bulk-step-${step}`}
                text={`${POSITION_ACTION_LABELS[step]} (${takers(step)})`}
                onClick={() => void stepSelection(step)}
              />
            ))}
          {stageActions.length > 0 && (
            <PopoverNext
              content={
                <Menu>
                  {stageActions.map((a) => (
                    <MenuItem key={a} text={POSITION_ACTION_LABELS[a]} onClick={() => startStage(a)} />
                  ))}
                </Menu>
              }
            >
              <Button icon="flow-linear" endIcon="caret-down" text={t('orders.bulk.changeStage')} />
            </PopoverNext>
          )}
          {exchangeable && rows.length > 0 && (
            <Button
              icon="move"
              text={t('orders.bulk.move')}
              onClick={withSelection('move', BULK_MESSAGES.selectForMove)}
            />
          )}
          {exchangeable && (
            <Button
              icon="merge-columns"
              text={t('orders.bulk.consolidate')}
              onClick={() => setDialog('consolidate')}
            />
          )}
          {exchangeable && !order.parent_order_id && rows.length > 0 && (
            <Button icon="split-columns" text={t('orders.bulk.split')} onClick={() => setDialog('split')} />
          )}
        </div>
      )}
      <div className="caravan-table-scroll">
        <HTMLTable compact striped interactive className="caravan-position-table">
          <thead>
            <tr>
              {selectable && (
                <th>
                  <Checkbox
                    aria-label={t('orders.bulk.selectAll')}
                    checked={rows.length > 0 && rows.every((r) => chosenIds.has(r.id))}
                    indeterminate={chosen.length > 0 && chosen.length < rows.length}
                    onChange={() => {
                      // this page's rows: all of them chosen, or none (choices on other pages stay)
                      const all = rows.every((r) => chosenIds.has(r.id));
                      const pageIds = new Set(rows.map((r) => r.id));
                      setSelected(
                        all
                          ? selected.filter((id) => !pageIds.has(id))
                          : [...new Set([...selected, ...pageIds])],
                      );
                    }}
                  />
                </th>
              )}
              {columns.map((c) => (
                <th key={c}>{COLUMNS[c].label(t)}</th>
              ))}
              {ozonColumn && <th>Ozon</th>}
              {mode === 'item' && <th />}
              {mode === 'item' && <th />}
            </tr>
          </thead>
          <tbody>
            {rows.map((r, i) => {
              const { cells, warnings } = body[i]!;
              return (
                <tr key={r.id} data-testid={`position-row-${i + 1}`}>
                  {selectable && (
                    <td>
                      <Checkbox
                        aria-label={t('orders.bulk.select', { title: r.title })}
                        checked={chosenIds.has(r.id)}
                        onChange={() => toggle(r.id)}
                      />
                    </td>
                  )}
                  {cells}
                  {ozonColumn && (
                    <td data-testid="ozon-cell">
                      <OzonCell position={r} />
                    </td>
                  )}
                  {mode === 'item' && (
                    <td>
                      {warnings.length > 0 && (
                        <Tooltip content={warnings.join('; ')}>
                          <Icon icon="warning-sign" intent="warning" aria-label={warnings.join('; ')} />
                        </Tooltip>
                      )}
                      {staff &&
                        editable &&
                        positionActionsFor(r as unknown as PositionFacts).map((action) => (
                          <Button
                            key={action}
                            size="small"
                            variant="outlined"
                            text={POSITION_ACTION_LABELS[action]}
                            data-testid={`position-action-${action}`}
                            onClick={() => start(r, action)}
                          />
                        ))}
                    </td>
                  )}
                  {mode === 'item' && (
                    <td>
                      {canDelete && (
                        <Button
                          size="small"
                          variant="minimal"
                          icon="trash"
                          intent="danger"
                          aria-label={t('item.delete')}
                          onClick={() => setRemoving(r)}
                        />
                      )}
                    </td>
                  )}
                </tr>
              );
            })}
          </tbody>
        </HTMLTable>
      </div>
      {(page > 1 || morePages) && (
        <div className="caravan-pager" data-testid="position-pager">
          <Button
            icon="chevron-left"
            aria-label={t('orders.bulk.previousPage')}
            disabled={page === 1}
            onClick={() => setPage(page - 1)}
          />
          <span>{t('orders.bulk.page', { page, from: offset + 1, to: offset + rows.length })}</span>
          <Button
            icon="chevron-right"
            aria-label={t('orders.bulk.nextPage')}
            disabled={!morePages}
            onClick={() => setPage(page + 1)}
          />
        </div>
      )}
      <p data-testid="position-summary">
        {data && !data.total_exact
          ? t('orders.bulk.countAbout', {
              n: formatNumber(data.total_estimate ?? data.total - 1, { maxDigits: 0 }),
            })
          : t('orders.positionCount', { count: data?.total ?? rows.length })}
        {Number(buyoutTotal) > 0 && ` · ${t('orders.bulk.buyoutTotal')}: ${formatMoney(buyoutTotal)}`}
        {selected.length > 0 && ` · ${t('orders.bulk.selected', { count: selected.length })}`}
      </p>
      {adding && (
        <EditDialog
          isOpen
          title={t('orders.addPosition')}
          entity="client_order_position"
          fields={NEW_POSITION_FIELDS}
          initial={{ product_images: [] }}
          successMessage={(v) => ORDER_MESSAGES.positionAdded(String(v.title))}
          onClose={() => setAdding(false)}
          onSubmit={(values) =>
            save({
              entity: 'client_order_position',
              values: { id: -1, client_order_id: orderId, ...values },
            }).unwrap()
          }
        />
      )}
      {dialog === 'import' && <ExcelImportDialog orderId={orderId} onClose={() => setDialog(null)} />}
      {dialog === 'paste' && <ClipboardDialog orderId={orderId} onClose={() => setDialog(null)} />}
      {dialog === 'split' && <SplitDialog order={order} rows={rows} onClose={() => setDialog(null)} />}
      {dialog === 'consolidate' && (
        <ConsolidationDialog order={order as Values & { id: number }} onClose={() => setDialog(null)} />
      )}
      {dialog === 'edit' && (
        <EditDialog
          isOpen
          title={t('orders.bulk.editTitle', { count: selected.length })}
          entity="client_order_position"
          fields={bulkEditFields(order.client_id as number)}
          successMessage={BULK_MESSAGES.bulkEdited(selected.length)}
          onClose={() => setDialog(null)}
          onSubmit={(v) => bulk('client_order_position_bulk_update', { fields: v })}
        />
      )}
      {dialog === 'move' && (
        <EditDialog
          isOpen
          title={t('orders.bulk.moveTitle', { count: selected.length })}
          fields={[
            {
              name: 'client_order_id',
              label: t('orders.bulk.targetOrder'),
              kind: 'ref',
              entity: 'client_order',
              required: true,
              where: () => [
                { field: 'client_id', op: '=', value: order.client_id as number },
                { field: 'operator_id', op: '=', value: order.operator_id as number },
                { field: 'stage', op: '=', value: order.stage as string },
                { field: 'id', op: 'not_in', value: [orderId] },
              ],
            },
          ]}
          submitText={t('orders.bulk.move')}
          successMessage={ORDER_MESSAGES.done}
          onClose={() => setDialog(null)}
          onSubmit={(v) => bulk('client_order_position_move', { client_order_id: v.client_order_id })}
        />
      )}
      {(dialog === 'warehouse_waiting' || dialog === 'warehouse_received') && (
        <EditDialog
          isOpen
          title={`${POSITION_ACTION_LABELS[dialog]}: ${t('orders.bulk.affected', { count: inSource(dialog), of: chosen.length })}`}
          fields={ACTION_FIELDS[dialog]!}
          initial={dialog === 'warehouse_waiting' ? { receive_date: today() } : { date: today() }}
          submitText={POSITION_ACTION_LABELS[dialog]}
          successMessage={BULK_MESSAGES.stageChanged(
            chosen.filter((r) => r.stage === BULK_STAGE_ACTIONS[dialog]).length,
          )}
          onClose={() => setDialog(null)}
          onSubmit={(v) =>
            bulk(
              'client_order_position_bulk_action',
              dialog === 'warehouse_waiting'
                ? { action: dialog, receive_date: v.receive_date }
                : {
                    action: dialog,
                    receive_record: receiveRecordOf(v),
                  },
            )
          }
        />
      )}
      {pending && ACTION_FIELDS[pending.action] && (
        <EditDialog
          isOpen
          title={POSITION_ACTION_LABELS[pending.action]}
          fields={ACTION_FIELDS[pending.action]!}
          initial={pending.action === 'warehouse_waiting' ? { receive_date: today() } : { date: today() }}
          submitText={POSITION_ACTION_LABELS[pending.action]}
          successMessage={ORDER_MESSAGES.done}
          onClose={() => setPending(null)}
          onSubmit={(v) =>
            call({
              method: 'client_order_position_action',
              params:
                pending.action === 'warehouse_waiting'
                  ? { id: pending.position.id, action: pending.action, receive_date: v.receive_date }
                  : {
                      id: pending.position.id,
                      action: pending.action,
                      receive_record: receiveRecordOf(v),
                    },
            }).unwrap()
          }
        />
      )}
      <ConfirmDialog
        isOpen={Boolean(pending && !ACTION_FIELDS[pending.action])}
        intent="warning"
        text={ORDER_MESSAGES.notPaid}
        confirmText={pending ? POSITION_ACTION_LABELS[pending.action] : ''}
        onConfirm={() => {
          const p = pending!;
          setPending(null);
          void act(p.position, p.action).catch(() => undefined);
        }}
        onCancel={() => setPending(null)}
      />
      <ConfirmDialog
        isOpen={removing !== null}
        intent="danger"
        text={t('orders.deletePositionConfirm', { title: removing?.title })}
        confirmText={t('item.delete')}
        onConfirm={() => void remove(removing!)}
        onCancel={() => setRemoving(null)}
      />
    </Card>
  );
}
