import { Button, ButtonGroup, Card } from '@blueprintjs/core';
import type { CurrentUser } from '@caravan/contracts';
import { LoginForm } from '@caravan/ui-kit';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Logo } from '../layout/Logo';
import { RecoveryForm } from './auth/RecoveryForm';
import { RegistrationForm } from './auth/RegistrationForm';
import { VisitorLinks } from './auth/VisitorDialogs';

type Mode = 'login' | 'register' | 'recover';

/** Login page (spec §2): one of three mutually exclusive forms at a time. */
export function LoginPage({ onLoggedIn }: { onLoggedIn(user: CurrentUser): void }) {
  const { t } = useTranslation();
  const [mode, setMode] = useState<Mode>('login');
  const titles: Record<Mode, string> = {
    login: t('login.title'),
    register: t('auth.register'),
    recover: t('auth.recover'),
  };
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
        <h4 className="bp6-heading">{titles[mode]}</h4>
        {mode === 'login' && <LoginForm onLoggedIn={onLoggedIn} />}
        {mode === 'register' && <RegistrationForm />}
        {mode === 'recover' && <RecoveryForm />}
        <ButtonGroup variant="minimal" fill style={{ marginTop: 12 }}>
          {(['login', 'register', 'recover'] as const)
            .filter((m) => m !== mode)
            .map((m) => (
              <Button key={m} text={titles[m]} onClick={() => setMode(m)} />
            ))}
        </ButtonGroup>
        <VisitorLinks />
      </Card>
    </div>
  );
}
