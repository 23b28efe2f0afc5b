import { Card, H3 } from '@blueprintjs/core';
import type { CurrentUser } from '@caravan/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { entryText, type MenuEntry } from '../layout/menu';

export function HomePage({ user, entries }: { user: CurrentUser; entries: MenuEntry[] }) {
  const { t } = useTranslation();
  return (
    <Card>
      <H3>{t('home.hello', { name: user.fullname })}</H3>
      <p>{t('home.sections')}</p>
      <ul>
        {entries.map((e) => (
          <li key={e.path}>
            {e.disabled ? (
              <span className="bp6-text-muted">{entryText(t, e)}</span>
            ) : (
              <Link to={`/${e.path}`}>{entryText(t, e)}</Link>
            )}
          </li>
        ))}
      </ul>
    </Card>
  );
}
