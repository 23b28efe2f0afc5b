import { Tag } from '@blueprintjs/core';
import { user } from '@caravan/contracts';
import { DocumentList } from '@caravan/ui-kit';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useUserListQuery, type UserRow } from '../../api/users';

/** /users (admin): every user with their roles and state; a waiting user stands out. */
export function UsersPage() {
  const { t } = useTranslation();
  return (
    <DocumentList<UserRow>
      title={t('users.title')}
      useList={useUserListQuery}
      columns={[
        { key: 'id', label: 'id' },
        {
          key: 'email',
          label: user.labels.email,
          render: (row) => <Link to={`/users/${row.id}`}>{row.email}</Link>,
        },
        { key: 'name', label: 'имя', render: (row) => `${row.first_name} ${row.last_name}`.trim() },
        { key: 'roles', label: user.labels.roles, render: (row) => row.roles.join(', ') },
        {
          key: 'state',
          label: user.labels.state,
          render: (row) => (
            <Tag
              minimal
              intent={row.state === 'working' ? 'success' : row.state === 'fired' ? 'danger' : 'warning'}
            >
              {t(`states.${row.state}`)}
            </Tag>
          ),
        },
      ]}
    />
  );
}
