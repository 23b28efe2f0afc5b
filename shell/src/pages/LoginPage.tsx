import { Card } from '@blueprintjs/core';
import type { CurrentUser } from '@caravan/contracts';
import { LoginForm } from '@caravan/ui-kit';
import { useTranslation } from 'react-i18next';
import { Logo } from '../layout/Logo';

export function LoginPage({ onLoggedIn }: { onLoggedIn(user: CurrentUser): void }) {
  const { t } = useTranslation();
  return (
    <div className="caravan-login">
      <Card elevation={2} className="caravan-login-card">
        <div className="caravan-login-logo">
          <Logo size={48} />
          <div>
            <h1 className="bp6-heading">{t('app.name')}</h1>
            <div className="bp6-text-muted">{t('app.tagline')}</div>
          </div>
        </div>
        <LoginForm onLoggedIn={onLoggedIn} />
      </Card>
    </div>
  );
}
