import { Dialog, DialogBody, HTMLTable, NonIdealState, Spinner } from '@blueprintjs/core';
import { formatDisplayDateTime } from '@caravan/contracts';
import { useTranslation } from 'react-i18next';
import { useDocumentHistoryQuery } from '../entityApi';

const shown = (value: unknown) => {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'object') {
    const text = JSON.stringify(value);
    return text.length > 160 ? `${text.slice(0, 160)}…` : text;
  }
  return String(value);
};

/** Who changed what and when (spec §2: a history dialog for every entity): field, old → new. */
export function HistoryDialog(props: { entity: string; id: number; isOpen: boolean; onClose(): void }) {
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
              {data?.map((h) => (
                <tr key={h.id}>
                  <td>{formatDisplayDateTime(h.datetime)}</td>
                  <td>{h.user_full_name}</td>
                  <td>{t(`fields.${h.type}`, { defaultValue: h.type_ru })}</td>
                  <td>
                    {h.type === 'created'
                      ? t('history.created')
                      : `${shown(h.old_value)} → ${shown(h.new_value)}`}
                  </td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        )}
      </DialogBody>
    </Dialog>
  );
}
