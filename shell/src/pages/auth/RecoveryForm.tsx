import { Button, Callout } from '@blueprintjs/core';
import { RecoveryParams } from '@caravan/contracts';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { postApi } from '@caravan/ui-kit';
import { fieldErrors } from '../../api';
import { Field } from './Field';

/** Password recovery by email (spec §5): on success the form gives way to the server's message. */
export function RecoveryForm() {
  const { t } = useTranslation();
  const [login, setLogin] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const found = fieldErrors(RecoveryParams, { login });
    setError(found.login);
    if (found.login) return;
    setBusy(true);
    const reply = await postApi('recover_password', { login });
    setBusy(false);
    if (reply.ok) setDone(reply.message ?? String(reply.result));
    else setError(reply.message);
  };

  if (done)
    return (
      <Callout intent="success" role="status">
        {done}
      </Callout>
    );
  return (
    <form onSubmit={submit} aria-label={t('auth.recover')}>
      <Field
        id="rec-login"
        label={t('login.email')}
        type="email"
        autoComplete="username"
        value={login}
        onChange={setLogin}
        error={error}
      />
      <Button type="submit" intent="primary" text={t('auth.recoverSubmit')} loading={busy} fill large />
    </form>
  );
}
