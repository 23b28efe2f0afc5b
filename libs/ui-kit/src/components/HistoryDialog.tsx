import { Dialog, DialogBody, HTMLTable, NonIdealState, Spinner } from '@blueprintjs/core';
import { formatDisplayDate, formatDisplayDateTime, formatNumber } from '@caravan/contracts';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useDocumentHistoryQuery } from '../entityApi';
import type { FieldDef } from '../fields';

/** A value as the form shows it: an option's label, yes / no, a date as DD-MM-YYYY, a number the ru-RU way. */
const shown = (value: unknown, field: FieldDef | undefined, t: TFunction) => {
  if (value === null || value === undefined || value === '') return '—';
  const option = field?.options?.find((o) => o.value === value);
  if (option) return t(`enums.${field!.name}.${option.value}`, { defaultValue: option.label });
  if (typeof value === 'boolean') return t(value ? 'common.yes' : 'common.no');
  if (field?.kind === 'date' && typeof value === 'string') return formatDisplayDate(value);
  if (field?.kind === 'datetime' && typeof value === 'string') return formatDisplayDateTime(value);
  if (field?.kind === 'decimal' || field?.kind === 'integer')
    return formatNumber(value as string | number, { maxDigits: 4 });
  if (typeof value === 'object') {
    const text = JSON.stringify(value);
    return text.length > 160 ? `${text.slice(0, 160)}…` : text;
  }
  return String(value);
};

/** Who changed what and when (spec §2: a history dialog for every entity): field, old → new. */
export function HistoryDialog(props: {
  entity: string;
  id: number;
  fields?: FieldDef[];
  isOpen: boolean;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const { data, isFetching, error } = useDocumentHistoryQuery(
    { entity: props.entity, id: props.id },
    { skip: !props.isOpen },
  );
  return (
    <Dialog title={t('history.title')} isOpen={props.isOpen} onClose={props.onClose} style={{ width: 760 }}>
      <DialogBody>
        {isFetching && !data ? (
          <Spinner />
        ) : error ? (
          <NonIdealState icon="error" title={(error as { message?: string }).message} />
        ) : (
          <HTMLTable compact striped className="caravan-history" data-testid="history">
            <thead>
              <tr>
                <th>{t('history.when')}</th>
                <th>{t('history.who')}</th>
                <th>{t('history.field')}</th>
                <th>{t('history.change')}</th>
              </tr>
            </thead>
            <tbody>
              {data?.map((h) => {
                const field = props.fields?.find((f) => f.name === h.type);
                return (
                  <tr key={h.id}>
                    <td>{formatDisplayDateTime(h.datetime)}</td>
                    <td>{h.user_full_name}</td>
                    <td>{t(`fields.${h.type}`, { defaultValue: h.type_ru })}</td>
                    <td>
                      {h.type === 'created'
                        ? t('history.created')
                        : `${shown(h.old_value, field, t)} → ${shown(h.new_value, field, t)}`}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </HTMLTable>
        )}
      </DialogBody>
    </Dialog>
  );
}
