import { Button, Dialog, DialogBody, DialogFooter, FormGroup, HTMLTable, TextArea } from '@blueprintjs/core';
import { BULK_MESSAGES, clientOrderPosition, parseClipboardPositions } from '@caravan/contracts';
import { ReferenceSelect, toast } from '@caravan/ui-kit';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOrderCallMutation } from '../api';

type Pasted = { waybill: string; title: string; type_id: number | null };
const P = clientOrderPosition.labels;

/**
 * Paste from the clipboard (spec §5): each line 'waybill, whitespace, title'; other lines skipped. The
 * product type is required before continuing and may be changed per row; the positions are created
 * in one call.
 */
export function ClipboardDialog({ orderId, onClose }: { orderId: number; onClose(): void }) {
  const { t } = useTranslation();
  const [call] = useOrderCallMutation();
  const [text, setText] = useState('');
  const [rows, setRows] = useState<Pasted[] | null>(null);
  const [typeId, setTypeId] = useState<number | null>(null);
  const [saving, setSaving] = useState(false);
  const [skipped, setSkipped] = useState(0);

  useEffect(() => {
    // the browser may refuse to read the clipboard; the text can then be pasted into the field
    navigator.clipboard?.readText?.().then(
      (clip) => setText((prev) => prev || clip),
      () => undefined,
    );
  }, []);

  const recognise = () => {
    const found = parseClipboardPositions(text);
    if (!found.length) return void toast(BULK_MESSAGES.clipboardNothing, 'warning');
    setSkipped(text.split(/\r?\n/).filter((line) => line.trim()).length - found.length);
    setRows(found.map((r) => ({ ...r, type_id: null })));
  };
  const removeRow = (i: number) =>
    setRows((prev) => (prev!.length > 1 ? prev!.filter((_, k) => k !== i) : null));
  const setRowType = (i: number, id: number | null) =>
    setRows((prev) => prev!.map((r, k) => (k === i ? { ...r, type_id: id } : r)));

  const submit = async () => {
    if (!typeId) return void toast(BULK_MESSAGES.typeRequired, 'warning');
    setSaving(true);
    try {
      await call({
        method: 'client_order_position_import',
        params: {
          client_order_id: orderId,
          source: 'clipboard',
          positions: rows!.map((r) => ({ title: r.title, waybill: r.waybill, type_id: r.type_id ?? typeId })),
        },
      }).unwrap();
      void toast(BULK_MESSAGES.pasted(rows!.length), 'success');
      onClose();
    } catch (err) {
      void toast((err as { message: string }).message, 'danger');
    } finally {
      setSaving(false);
    }
  };

  return (
    <Dialog
      isOpen
      title={t('orders.bulk.pasteTitle')}
      onClose={onClose}
      style={{ width: 'min(900px, 95vw)' }}
    >
      <DialogBody>
        {!rows ? (
          <FormGroup
            label={t('orders.bulk.pasteLabel')}
            labelFor="paste-text"
            helperText={t('orders.bulk.pasteHint')}
          >
            <TextArea id="paste-text" fill rows={8} value={text} onChange={(e) => setText(e.target.value)} />
          </FormGroup>
        ) : (
          <>
            <FormGroup
              label={P.type_id}
              labelFor="paste-type"
              labelInfo="*"
              helperText={t('orders.bulk.pasteTypeHint')}
            >
              <ReferenceSelect
                id="paste-type"
                entity="logistic_product_type"
                value={typeId}
                onChange={(id) => setTypeId(id)}
              />
            </FormGroup>
            <HTMLTable compact striped>
              <thead>
                <tr>
                  <th>№</th>
                  <th>{P.waybill}</th>
                  <th>{P.title}</th>
                  <th>{P.type_id}</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {rows.map((r, i) => (
                  <tr key={i} data-testid={`paste-row-${i + 1}`}>
                    <td>{i + 1}</td>
                    <td>{r.waybill}</td>
                    <td>{r.title}</td>
                    <td>
                      <ReferenceSelect
                        entity="logistic_product_type"
                        value={r.type_id ?? typeId}
                        disabled={!typeId}
                        onChange={(id) => setRowType(i, id)}
                      />
                    </td>
                    <td>
                      <Button
                        size="small"
                        variant="minimal"
                        icon="cross"
                        aria-label={t('orders.bulk.removeRow')}
                        onClick={() => removeRow(i)}
                      />
                    </td>
                  </tr>
                ))}
              </tbody>
            </HTMLTable>
            {skipped > 0 && <p>{t('orders.bulk.skippedLines', { count: skipped })}</p>}
          </>
        )}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t('common.cancel')} onClick={onClose} />
            {rows && <Button icon="arrow-left" text={t('orders.bulk.back')} onClick={() => setRows(null)} />}
            {!rows ? (
              <Button intent="primary" text={t('orders.bulk.recognise')} onClick={recognise} />
            ) : (
              <Button
                intent="primary"
                text={t('orders.bulk.addPasted', { count: rows.length })}
                loading={saving}
                onClick={() => void submit()}
              />
            )}
          </>
        }
      />
    </Dialog>
  );
}
