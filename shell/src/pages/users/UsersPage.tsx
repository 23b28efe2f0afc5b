import { Tag } from '@blueprintjs/core';
import { ROLE_LABELS, user, USER_STATES, type Role } from '@caravan/contracts';
import { EntityListPage, type EntityView } from '@caravan/ui-kit';

const view: EntityView = {
  entity: 'user',
  title: 'users.title',
  itemPage: true,
  canCreate: () => false,
  columns: [
    { key: 'id', label: 'id' },
    { key: 'email', label: user.labels.email },
    { key: 'last_name', label: 'имя', render: (row) => `${row.first_name} ${row.last_name}`.trim() },
    {
      key: 'roles',
      label: user.labels.roles,
      render: (row, t) =>
        (row.roles as Role[]).map((r) => t(`roles.${r}`, { defaultValue: ROLE_LABELS[r] })).join(', '),
    },
    {
      key: 'state',
      label: user.labels.state,
      render: (row, t) => (
        <Tag
          minimal
          intent={row.state === 'working' ? 'success' : row.state === 'fired' ? 'danger' : 'warning'}
        >
          {t(`states.${row.state}`)}
        </Tag>
      ),
    },
  ],
  fields: [],
  filters: [
    { name: 'email', label: user.labels.email },
    {
      name: 'state',
      label: user.labels.state,
      kind: 'select',
      options: USER_STATES.map((s) => ({ value: s, label: s })),
    },
  ],
};

/** /users (admin): every user with their roles and state; a waiting user stands out; a row opens /users/{id}. */
export function UsersPage() {
  return <EntityListPage view={view} />;
}
