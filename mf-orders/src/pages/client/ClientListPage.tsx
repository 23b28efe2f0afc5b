import { useTranslation } from 'react-i18next';
import { client, CLIENT_TYPES } from '@caravan/contracts';
import { DocumentList, type FieldDef } from '@caravan/ui-kit';
import { useClientListQuery, useClientUpdateMutation, type ClientRow } from '../../api/client';

export default function ClientListPage() {
  const { t } = useTranslation();
  const fields: FieldDef[] = [
    { name: 'title', label: client.labels.title, required: true },
    {
      name: 'type',
      label: client.labels.type,
      type: 'select',
      options: CLIENT_TYPES.map((value) => ({ value, label: t(`clientTypes.${value}`) })),
    },
    { name: 'incognito', label: client.labels.incognito, type: 'checkbox' },
  ];
  return (
    <DocumentList<ClientRow>
      title={t('pages.client')}
      useList={useClientListQuery}
      create={{ useUpdate: useClientUpdateMutation, fields, initial: { type: 'self' } }}
      columns={[
        { key: 'id', label: 'id' },
        { key: 'title', label: client.labels.title },
        { key: 'type', label: client.labels.type, render: (row) => t(`clientTypes.${row.type}`) },
        {
          key: 'created_at',
          label: 'создан',
          render: (row) => new Date(row.created_at).toLocaleDateString('ru-RU'),
        },
      ]}
    />
  );
}
