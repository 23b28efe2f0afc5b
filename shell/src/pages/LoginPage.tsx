import { Button, ButtonGroup, Card, Spinner } from '@blueprintjs/core';
import type { CurrentUser } from '@caravan/contracts';
import { LoginForm } from '@caravan/ui-kit';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Logo } from '../layout/Logo';
import { VisitorLinks } from './auth/VisitorLinks';

// The other two forms check their fields with the contracts' zod schemas: zod comes with them, not
// with the login page (issue 21).
const RegistrationForm = lazy(() =>
  import('./auth/RegistrationForm').then((m) => ({ default: m.RegistrationForm })),
);
const RecoveryForm = lazy(() => import('./auth/RecoveryForm').then((m) => ({ default: m.RecoveryForm })));

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
        <Suspense fallback={<Spinner size={32} />}>
          {mode === 'register' && <RegistrationForm />}
          {mode === 'recover' && <RecoveryForm />}
        </Suspense>
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
