import {
  Button,
  Dialog,
  DialogBody,
  DialogFooter,
  FileInput,
  FormGroup,
  HTMLTable,
  InputGroup,
  ProgressBar,
} from '@blueprintjs/core';
import {
  BULK_MESSAGES,
  EXCEL_EXTENSIONS,
  EXCEL_MAX_BYTES,
  IMPORT_TARGET_LABELS,
  INVOICE_ROW_LABELS,
  InvoiceRow,
  MESSAGES,
  recalculateVat,
  trimInvoiceRows,
  uploadRefusal,
  type ImportColumn,
  type InvoiceImport,
  type VatField,
} from '@caravan/contracts';
import { postFormWithProgress, toast } from '@caravan/ui-kit';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOrderCallMutation } from '../api';

/** A row being edited; `flag` is why the import asks to check it (its sum disagrees), kept with the row. */
type EditRow = { [K in keyof InvoiceRow]: string } & { flag?: string };
type EditField = keyof InvoiceRow;
const PAGE = 100;
const toEdit = (r: InvoiceRow, flag?: string): EditRow => ({
  title: r.title,
  amount: r.amount ?? '',
  unit: r.unit,
  price_no_nds: r.price_no_nds ?? '',
  nds: r.nds ?? '',
  price_nds: r.price_nds ?? '',
  price_cny: r.price_cny ?? '',
  ...(flag ? { flag } : {}),
});
const orNull = (v: string) => (v.trim() === '' ? null : v.trim().replace(',', '.'));
const NUMERIC: EditField[] = ['amount', 'price_no_nds', 'nds', 'price_nds', 'price_cny'];
const FIELDS = Object.keys(INVOICE_ROW_LABELS) as EditField[];

/**
 * Excel import (spec §2, §5, §7): the file is sent with a progress bar, the server reads the invoice
 * rows and number; the rows are edited here (VAT recalculated, rows trimmed) and imported in one call,
 * all or none.
 */
export function ExcelImportDialog({ orderId, onClose }: { orderId: number; onClose(): void }) {
  const { t } = useTranslation();
  const [call] = useOrderCallMutation();
  const [progress, setProgress] = useState<number | null>(null);
  const [rows, setRows] = useState<EditRow[] | null>(null);
  const [columns, setColumns] = useState<ImportColumn[]>([]);
  const [number, setNumber] = useState('');
  const [page, setPage] = useState(0);
  const [saving, setSaving] = useState(false);
  const [fileName, setFileName] = useState('');
  const [problems, setProblems] = useState<Record<string, string>>({});

  const read = async (file: File) => {
    setFileName(file.name);
    setRows(null);
    setProblems({});
    const refused = uploadRefusal(file, { maxBytes: EXCEL_MAX_BYTES, extensions: EXCEL_EXTENSIONS });
    if (refused) return void toast(refused, 'danger');
    const form = new FormData();
    form.append('type', 'invoice');
    form.append('orderId', String(orderId));
    form.append('file', file, file.name);
    setProgress(0);
    const reply = await postFormWithProgress<InvoiceImport>('client_order_excel_import', form, setProgress);
    setProgress(null);
    if (!reply.ok) return void toast(reply.message || t('orders.bulk.uploadFailed'), 'danger');
    setProblems({});
    const flags = new Map((reply.result.flags ?? []).map((f) => [f.row, f.message]));
    // rows are flagged by their index in the reply, before trimming drops any
    setRows(trimInvoiceRows(reply.result.rows.map((r, i) => toEdit(r, flags.get(i)))));
    setColumns(reply.result.columns ?? []);
    setNumber(reply.result.number);
    setPage(0);
  };

  const edit = (index: number, field: EditField, value: string) => {
    setProblems(({ [`${index}:${field}`]: _fixed, ...rest }) => rest);
    setRows((prev) => {
      const next = [...prev!];
      let row = { ...next[index]!, [field]: value };
      if (field === 'price_no_nds' || field === 'nds' || field === 'price_nds') {
        const vat = recalculateVat(
          { price_no_nds: orNull(row.price_no_nds), nds: orNull(row.nds), price_nds: orNull(row.price_nds) },
          field as VatField,
        );
        row = {
          ...row,
          price_no_nds: field === 'price_no_nds' ? value : String(vat.price_no_nds ?? ''),
          nds: field === 'nds' ? value : String(vat.nds ?? ''),
          price_nds: field === 'price_nds' ? value : String(vat.price_nds ?? ''),
        };
      }
      next[index] = row;
      return next;
    });
  };
  const removeRow = (index: number) => {
    setProblems({});
    setRows((prev) => prev!.filter((_, i) => i !== index));
  };

  /** Each row as the service will check it: a problem per cell ('3:amount'), the first one told in words. */
  const check = () => {
    const found: Record<string, string> = {};
    (rows ?? []).forEach((r, i) => {
      const parsed = InvoiceRow.safeParse({
        title: r.title,
        amount: orNull(r.amount),
        unit: r.unit,
        price_no_nds: orNull(r.price_no_nds),
        nds: orNull(r.nds),
        price_nds: orNull(r.price_nds),
        price_cny: orNull(r.price_cny),
      });
      if (parsed.success) return;
      for (const issue of parsed.error.issues) {
        const field = String(issue.path[0]) as EditField;
        const words =
          field !== 'title'
            ? BULK_MESSAGES.numberExpected
            : r.title.trim()
              ? BULK_MESSAGES.titleTooLong
              : MESSAGES.fieldRequired(INVOICE_ROW_LABELS.title);
        found[`${i}:${field}`] ??= t('orders.bulk.rowProblem', {
          row: i + 1,
          label: INVOICE_ROW_LABELS[field],
          problem: words,
        });
      }
    });
    setProblems(found);
    return Object.values(found);
  };

  const submit = async () => {
    const found = check();
    if (found.length) return void toast(found[0]!, 'warning');
    const kept = trimInvoiceRows(rows ?? []);
    if (!kept.length) return void toast(BULK_MESSAGES.importEmpty, 'warning');
    setSaving(true);
    try {
      await call({
        method: 'client_order_position_import',
        params: {
          client_order_id: orderId,
          source: 'excel',
          order_number: number.trim(),
          positions: kept.map((r) => ({
            title: r.title,
            amount: orNull(r.amount),
            sell_price_no_nds_rur: orNull(r.price_no_nds),
            sell_price_nds_rur: orNull(r.price_nds),
            price_cny: orNull(r.price_cny),
          })),
        },
      }).unwrap();
      void toast(BULK_MESSAGES.imported, 'success');
      onClose();
    } catch (err) {
      void toast((err as { message: string }).message, 'danger');
    } finally {
      setSaving(false);
    }
  };

  const pages = rows ? Math.max(1, Math.ceil(rows.length / PAGE)) : 1;
  const shown = rows?.slice(page * PAGE, (page + 1) * PAGE) ?? [];
  return (
    <Dialog
      isOpen
      title={t('orders.bulk.importTitle')}
      onClose={onClose}
      style={{ width: 'min(1100px, 95vw)' }}
    >
      <DialogBody>
        <FormGroup label={t('orders.bulk.invoiceFile')} helperText={t('orders.bulk.invoiceHint')}>
          <FileInput
            fill
            text={fileName ? t('orders.bulk.chosenFile', { name: fileName }) : t('orders.bulk.chooseFile')}
            hasSelection={Boolean(fileName)}
            buttonText={t('orders.bulk.browse')}
            inputProps={{ accept: '.xlsx,.xls', 'aria-label': t('orders.bulk.invoiceFile') }}
            disabled={progress !== null}
            onInputChange={(e) => {
              const input = e.target as HTMLInputElement;
              const file = input.files?.[0];
              // the same file chosen again (after fixing it) is read again
              input.value = '';
              if (file) void read(file);
            }}
          />
        </FormGroup>
        {progress !== null && (
          <div data-testid="import-progress">
            <ProgressBar value={progress < 1 ? progress : undefined} intent="primary" />
            <p>
              {progress < 1
                ? t('orders.bulk.uploading', { percent: Math.round(progress * 100) })
                : t('orders.bulk.reading')}
            </p>
          </div>
        )}
        {rows && (
          <>
            <FormGroup label={t('orders.bulk.invoiceNumber')} labelFor="import-number">
              <InputGroup id="import-number" value={number} onValueChange={setNumber} />
            </FormGroup>
            <p data-testid="import-count">{t('orders.bulk.rowsFound', { count: rows.length })}</p>
            {columns.length > 0 && (
              <p data-testid="import-mapping">
                {t('orders.bulk.columnMapping')}{' '}
                {columns.map((c) => `«${c.header}» → ${IMPORT_TARGET_LABELS[c.target]}`).join('; ')}
              </p>
            )}
            {rows.some((r) => r.flag) && (
              <ul data-testid="import-flags" className="caravan-import-flags">
                <li>{t('orders.bulk.flaggedRows', { count: rows.filter((r) => r.flag).length })}</li>
                {rows.map((r, i) =>
                  r.flag ? (
                    <li key={i}>{t('orders.bulk.flaggedRow', { row: i + 1, message: r.flag })}</li>
                  ) : null,
                )}
              </ul>
            )}
            <div className="caravan-table-scroll">
              <HTMLTable compact className="caravan-import-table">
                <thead>
                  <tr>
                    <th>№</th>
                    {FIELDS.map((f) => (
                      <th key={f}>
                        {t(`orders.bulk.invoice.${f}`, { defaultValue: INVOICE_ROW_LABELS[f] })}
                      </th>
                    ))}
                    <th />
                  </tr>
                </thead>
                <tbody>
                  {shown.map((r, k) => {
                    const i = page * PAGE + k;
                    return (
                      <tr
                        key={i}
                        data-testid={`import-row-${i + 1}`}
                        data-flagged={r.flag ? 'true' : undefined}
                        title={r.flag}
                        className={r.flag ? 'caravan-import-flagged' : undefined}
                      >
                        <td>{i + 1}</td>
                        {FIELDS.map((f) => (
                          <td key={f} className={f === 'title' ? 'caravan-import-title' : undefined}>
                            {f === 'unit' ? (
                              r.unit
                            ) : (
                              <InputGroup
                                size="small"
                                value={r[f]}
                                intent={problems[`${i}:${f}`] ? 'danger' : undefined}
                                title={problems[`${i}:${f}`]}
                                inputMode={NUMERIC.includes(f) ? 'decimal' : undefined}
                                aria-label={`${INVOICE_ROW_LABELS[f]} ${i + 1}`}
                                onValueChange={(v) => edit(i, f, v)}
                              />
                            )}
                          </td>
                        ))}
                        <td>
                          <Button
                            size="small"
                            variant="minimal"
                            icon="cross"
                            aria-label={t('item.delete')}
                            onClick={() => removeRow(i)}
                          />
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </HTMLTable>
            </div>
            {pages > 1 && (
              <div className="caravan-pager">
                <Button icon="chevron-left" disabled={page === 0} onClick={() => setPage(page - 1)} />
                <span>
                  {page + 1} / {pages}
                </span>
                <Button icon="chevron-right" disabled={page >= pages - 1} onClick={() => setPage(page + 1)} />
              </div>
            )}
          </>
        )}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t('common.cancel')} onClick={onClose} />
            <Button
              intent="primary"
              text={t('orders.bulk.import')}
              disabled={!rows?.length}
              loading={saving}
              onClick={() => void submit()}
            />
          </>
        }
      />
    </Dialog>
  );
}
