import { Card, H3 } from '@blueprintjs/core';
import type { CurrentUser } from '@caravan/contracts';
import { Link } from 'react-router-dom';
import type { MenuEntry } from '../layout/menu';

export function HomePage({ user, entries }: { user: CurrentUser; entries: MenuEntry[] }) {
  return (
    <Card>
      <H3>Здравствуйте, {user.fullname}!</H3>
      <p>Разделы, доступные вам:</p>
      <ul>
        {entries.map((e) => (
          <li key={e.path}>
            {e.disabled ? (
              <span className="bp6-text-muted">{e.label}</span>
            ) : (
              <Link to={`/${e.path}`}>{e.label}</Link>
            )}
          </li>
        ))}
      </ul>
    </Card>
  );
}
