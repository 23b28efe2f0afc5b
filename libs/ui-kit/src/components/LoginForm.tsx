import { Button, Callout, FormGroup, InputGroup } from '@blueprintjs/core';
import {
  EMAIL_PATTERN,
  fail,
  MESSAGES,
  PASSWORD_MIN_LENGTH,
  type CurrentUser,
  type Reply,
} from '@caravan/contracts';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { setAuthToken } from '../auth';

export async function loginRequest(
  login: string,
  password: string,
): Promise<Reply<{ token: string; user: CurrentUser }>> {
  try {
    const res = await fetch('/api/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ login, password }),
    });
    return (await res.json()) as Reply<{ token: string; user: CurrentUser }>;
  } catch {
    return fail(MESSAGES.serviceUnavailable);
  }
}

/** Email + password form (spec §5: loose email pattern, password of at least 7 characters). */
export function LoginForm({ onLoggedIn }: { onLoggedIn(user: CurrentUser): void }) {
  const { t } = useTranslation();
  const [login, setLogin] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!EMAIL_PATTERN.test(login.trim())) return setError(t('login.invalidEmail'));
    if (password.length < PASSWORD_MIN_LENGTH) return setError(t('login.passwordTooShort'));
    setBusy(true);
    const reply = await loginRequest(login.trim(), password);
    setBusy(false);
    if (!reply.ok) return setError(reply.message);
    setAuthToken(reply.result.token);
    onLoggedIn(reply.result.user);
  };

  return (
    <form onSubmit={submit} aria-label={t('login.title')}>
      {error && (
        <Callout intent="danger" style={{ marginBottom: 12 }} role="alert">
          {error}
        </Callout>
      )}
      <FormGroup label={t('login.email')} labelFor="login-email">
        <InputGroup
          id="login-email"
          type="email"
          autoComplete="username"
          value={login}
          onValueChange={setLogin}
          large
        />
      </FormGroup>
      <FormGroup label={t('login.password')} labelFor="login-password">
        <InputGroup
          id="login-password"
          type="password"
          autoComplete="current-password"
          value={password}
          onValueChange={setPassword}
          large
        />
      </FormGroup>
      <Button type="submit" intent="primary" text={t('login.submit')} loading={busy} fill large />
    </form>
  );
}
