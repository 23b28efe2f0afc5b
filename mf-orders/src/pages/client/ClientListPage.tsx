import { useTranslation } from 'react-i18next';
import { client, CLIENT_TYPES } from '@caravan/contracts';
import { DocumentList, type FieldDef } from '@caravan/ui-kit';
import { useClientListQuery, useClientUpdateMutation, type ClientRow } from '../../api/client';

const TYPE_LABELS: Record<(typeof CLIENT_TYPES)[number], string> = { self: 'физлицо', company: 'компания' };

const fields: FieldDef[] = [
  { name: 'title', label: client.labels.title, required: true },
  {
    name: 'type',
    label: client.labels.type,
    type: 'select',
    options: CLIENT_TYPES.map((value) => ({ value, label: TYPE_LABELS[value] })),
  },
  { name: 'incognito', label: client.labels.incognito, type: 'checkbox' },
];

export default function ClientListPage() {
  const { t } = useTranslation();
  return (
    <DocumentList<ClientRow>
      title={t('pages.client')}
      useList={useClientListQuery}
      create={{ useUpdate: useClientUpdateMutation, fields, initial: { type: 'self' } }}
      columns={[
        { key: 'id', label: 'id' },
        { key: 'title', label: client.labels.title },
        { key: 'type', label: client.labels.type, render: (row) => TYPE_LABELS[row.type] },
        {
          key: 'created_at',
          label: 'создан',
          render: (row) => new Date(row.created_at).toLocaleDateString('ru-RU'),
        },
      ]}
    />
  );
}
