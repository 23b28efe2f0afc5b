import { Button, Checkbox, Dialog, DialogBody, DialogFooter, HTMLTable, InputGroup } from '@blueprintjs/core';
import {
  BULK_MESSAGES,
  clientOrderPosition,
  dec,
  decFormat,
  decMul,
  formatNumber,
  splitProblems,
} from '@caravan/contracts';
import { toast, type EntityRow, type Values } from '@caravan/ui-kit';
import { memo, useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { useOrderCallMutation } from '../api';

const P = clientOrderPosition.labels;
const decimalOrZero = (v: unknown) => {
  try {
    return dec(String(v ?? '0').replace(',', '.') || '0');
  } catch {
    return 0n;
  }
};

/**
 * The split dialog (spec §2, §5): pick positions and how much of each goes to a new child order; the
 * count and total weight of the choice; 'создать дочерний заказ'.
 */
export function SplitDialog({ order, rows, onClose }: { order: Values; rows: EntityRow[]; onClose(): void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [call] = useOrderCallMutation();
  const [chosen, setChosen] = useState<Record<number, string>>({});
  const [saving, setSaving] = useState(false);
  const ids = Object.keys(chosen).map(Number);
  const totalWeight = decFormat(
    ids.reduce((sum, id) => {
      const row = rows.find((r) => r.id === id);
      return sum + decMul(decimalOrZero(row?.weight), decimalOrZero(chosen[id]));
    }, 0n),
    2,
  );
  const toggle = useCallback(
    (row: EntityRow) =>
      setChosen((prev) => {
        const next = { ...prev };
        if (row.id in next) delete next[row.id];
        else next[row.id] = String(row.amount ?? '1').replace(/\.00$/, '');
        return next;
      }),
    [],
  );
  const setAmount = useCallback((id: number, v: string) => setChosen((prev) => ({ ...prev, [id]: v })), []);

  const submit = async () => {
    const list = ids.map((id) => ({ id, amount: chosen[id]!.replace(',', '.') }));
    const problem = splitProblems(
      rows.map((r) => ({ id: r.id, amount: (r.amount as string | null) ?? null })),
      list,
    );
    if (problem) return void toast(problem, 'warning');
    setSaving(true);
    try {
      const result = (await call({
        method: 'client_order_split',
        params: { master_order_id: order.id, position_list: list },
      }).unwrap()) as { id: number; message: string };
      void toast(BULK_MESSAGES.splitCreated, 'success');
      onClose();
      navigate(`/client_order/${result.id}`);
    } catch (err) {
      void toast((err as { message: string }).message, 'danger');
    } finally {
      setSaving(false);
    }
  };

  const weight = order.weight ? `, ${formatNumber(order.weight as string, { maxDigits: 3 })} кг` : '';
  return (
    <Dialog
      isOpen
      title={`${t('orders.bulk.splitTitle', { title: order.title })}${weight}`}
      onClose={onClose}
    >
      <DialogBody>
        <HTMLTable compact striped interactive>
          <thead>
            <tr>
              <th />
              <th>{P.title}</th>
              <th>{P.waybill}</th>
              <th>{P.amount}</th>
              <th>{P.weight}</th>
              <th>{t('orders.bulk.splitAmount')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <SplitRow key={r.id} row={r} amount={chosen[r.id]} toggle={toggle} setAmount={setAmount} />
            ))}
          </tbody>
        </HTMLTable>
        <p data-testid="split-summary">
          {t('orders.bulk.splitSummary', {
            count: ids.length,
            weight: formatNumber(totalWeight, { minDigits: 2 }),
          })}
        </p>
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t('common.cancel')} onClick={onClose} />
            <Button
              intent="primary"
              text={t('orders.bulk.createChild')}
              loading={saving}
              onClick={() => void submit()}
            />
          </>
        }
      />
    </Dialog>
  );
}

/** One row of the split table: re-rendered only when its own choice changes (orders of hundreds of positions). */
const SplitRow = memo(function SplitRow({
  row: r,
  amount,
  toggle,
  setAmount,
}: {
  row: EntityRow;
  amount: string | undefined;
  toggle(row: EntityRow): void;
  setAmount(id: number, value: string): void;
}) {
  const { t } = useTranslation();
  const chosen = amount !== undefined;
  return (
    <tr data-testid={`split-row-${r.id}`}>
      <td>
        <Checkbox checked={chosen} aria-label={String(r.title)} onChange={() => toggle(r)} />
      </td>
      {/* the title toggles the row too, as in a multi-select list */}
      <td className="caravan-clickable" onClick={() => toggle(r)}>
        {String(r.title)}
      </td>
      <td>{String(r.waybill ?? '')}</td>
      <td className="caravan-nowrap">{formatNumber(r.amount as string)}</td>
      <td className="caravan-nowrap">{formatNumber(r.weight as string, { maxDigits: 3 })}</td>
      <td>
        {chosen && (
          <InputGroup
            size="small"
            type="number"
            min={0.01}
            step={0.01}
            max={Number(r.amount ?? 1)}
            value={amount}
            aria-label={`${t('orders.bulk.splitAmount')} ${String(r.title)}`}
            onValueChange={(v) => setAmount(r.id, v)}
          />
        )}
      </td>
    </tr>
  );
});
