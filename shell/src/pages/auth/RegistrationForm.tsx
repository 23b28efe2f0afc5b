import { Button, Callout } from '@blueprintjs/core';
import { RegistrationParams } from '@caravan/contracts';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { postApi } from '@caravan/ui-kit';
import { fieldErrors, shownMessage } from '../../api';
import { Field } from './Field';

const EMPTY = { login: '', password: '', passwordRepeat: '', last_name: '', first_name: '' };

/** Registration (spec §3, §5): on success the form gives way to the server's message. */
export function RegistrationForm() {
  const { t } = useTranslation();
  const [values, setValues] = useState(EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (field: keyof typeof EMPTY) => (value: string) => setValues((v) => ({ ...v, [field]: value }));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const found = fieldErrors(RegistrationParams, values);
    setErrors(found);
    if (Object.keys(found).length) return;
    setBusy(true);
    const reply = await postApi('register', values);
    setBusy(false);
    if (reply.ok) setDone(reply.message ?? String(reply.result));
    else setServerError(reply.message);
  };

  if (done)
    return (
      <Callout intent="success" title={t('auth.registrationDoneTitle')} role="status">
        {done}
      </Callout>
    );
  return (
    <form onSubmit={submit} aria-label={t('auth.register')}>
      {serverError && (
        <Callout intent="danger" role="alert" style={{ marginBottom: 12 }}>
          {serverError}
        </Callout>
      )}
      <Field
        id="reg-login"
        label={t('login.email')}
        type="email"
        autoComplete="username"
        value={values.login}
        onChange={set('login')}
        error={errors.login}
      />
      <Field
        id="reg-password"
        label={t('login.password')}
        type="password"
        autoComplete="new-password"
        value={values.password}
        onChange={set('password')}
        error={errors.password}
      />
      <Field
        id="reg-repeat"
        label={t('auth.passwordRepeat')}
        type="password"
        autoComplete="new-password"
        value={values.passwordRepeat}
        onChange={set('passwordRepeat')}
        error={shownMessage(t, errors.passwordRepeat)}
      />
      <Field
        id="reg-last-name"
        label={t('auth.lastName')}
        value={values.last_name}
        onChange={set('last_name')}
        error={errors.last_name}
      />
      <Field
        id="reg-first-name"
        label={t('auth.firstName')}
        value={values.first_name}
        onChange={set('first_name')}
        error={errors.first_name}
      />
      <Button type="submit" intent="primary" text={t('auth.registerSubmit')} loading={busy} fill large />
    </form>
  );
}
