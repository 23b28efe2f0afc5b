import { Button, Callout, Card, H3, Spinner } from '@blueprintjs/core';
import { EmailTokenParams, NewPasswordParams, USER_MESSAGES } from '@caravan/contracts';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { postApi } from '@caravan/ui-kit';
import { fieldErrors, shownMessage } from '../../api';
import { Logo } from '../../layout/Logo';
import { Field } from './Field';

function Frame({ title, children }: { title: string; children: React.ReactNode }) {
  const { t } = useTranslation();
  return (
    <div className="caravan-login">
      <Card elevation={2} className="caravan-login-card">
        <div className="caravan-login-logo">
          <Logo size={40} />
          <H3 style={{ margin: 0 }}>{title}</H3>
        </div>
        {children}
        <p style={{ marginTop: 16 }}>
          <Link to="/">{t('auth.toLogin')}</Link>
        </p>
      </Card>
    </div>
  );
}

/** /check_user_email?token=… — the confirmation link from the registration mail. */
export function CheckUserEmailPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const [reply, setReply] = useState<{ ok: boolean; message: string } | null>(null);
  const sent = useRef(false); // the token works once: StrictMode's second effect run must not spend it
  useEffect(() => {
    if (sent.current) return;
    sent.current = true;
    const body = { token: params.get('token') ?? '' };
    // a link cut short or tampered with is just an inactive link to its reader
    if (!EmailTokenParams.safeParse(body).success)
      return setReply({ ok: false, message: USER_MESSAGES.linkInactive });
    void postApi('check_user_email', body).then((r) =>
      setReply({ ok: r.ok, message: r.message ?? String(r.result) }),
    );
  }, [params]);
  return (
    <Frame title={t('auth.confirmTitle')}>
      {reply ? (
        <Callout intent={reply.ok ? 'success' : 'warning'} role="status">
          {reply.message}
        </Callout>
      ) : (
        <Spinner />
      )}
    </Frame>
  );
}

/** /email_auth_recover_password?token=… — set a new password from the recovery mail. */
export function RecoverPasswordPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const [values, setValues] = useState({ password: '', passwordRepeat: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [reply, setReply] = useState<{ ok: boolean; message: string } | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const body = { token: params.get('token') ?? '', ...values };
    const found = fieldErrors(NewPasswordParams, body);
    setErrors(found);
    if (found.password || found.passwordRepeat) return;
    if (found.token) return setReply({ ok: false, message: USER_MESSAGES.recoveryLinkInactive });
    const r = await postApi('email_auth_recover_password', body);
    setReply({ ok: r.ok, message: r.message ?? String(r.result) });
  };

  return (
    <Frame title={t('auth.newPasswordTitle')}>
      {reply?.ok ? (
        <Callout intent="success" role="status">
          {reply.message}
        </Callout>
      ) : (
        <form onSubmit={submit}>
          {reply && (
            <Callout intent="danger" role="alert" style={{ marginBottom: 12 }}>
              {reply.message}
            </Callout>
          )}
          <Field
            id="new-password"
            label={t('auth.newPassword')}
            type="password"
            autoComplete="new-password"
            value={values.password}
            onChange={(password) => setValues((v) => ({ ...v, password }))}
            error={errors.password}
          />
          <Field
            id="new-password-repeat"
            label={t('auth.passwordRepeat')}
            type="password"
            autoComplete="new-password"
            value={values.passwordRepeat}
            onChange={(passwordRepeat) => setValues((v) => ({ ...v, passwordRepeat }))}
            error={shownMessage(t, errors.passwordRepeat)}
          />
          <Button type="submit" intent="primary" text={t('common.save')} fill large />
        </form>
      )}
    </Frame>
  );
}
