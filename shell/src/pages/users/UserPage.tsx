import {
  Button,
  Card,
  Checkbox,
  FormGroup,
  H3,
  HTMLSelect,
  InputGroup,
  NonIdealState,
  Spinner,
} from '@blueprintjs/core';
import {
  MESSAGES,
  ROLES,
  USER_STATES,
  isValidPhone,
  PHONE_MESSAGE,
  type Role,
  type UserState,
  ROLE_LABELS,
} from '@caravan/contracts';
import { LinkSection, toast } from '@caravan/ui-kit';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { useUserGetQuery, useUserUpdateMutation } from '../../api/users';
import { TelegramState } from '../TelegramLink';

const TEXT_FIELDS = [
  ['first_name', 'profile.firstName'],
  ['last_name', 'profile.lastName'],
  ['phone', 'profile.phone'],
] as const;

/**
 * /users/{id} (admin): roles, state (approve, fire, reinstate), the user's Telegram link (made by the user
 * with a code, never typed in: ADR 0022), client and operator links.
 */
export function UserPage() {
  const { t } = useTranslation();
  const id = Number(useParams().id);
  const valid = Number.isInteger(id) && id > 0;
  const { data: user, isLoading, error } = useUserGetQuery(id, { skip: !valid });
  const [update, { isLoading: saving }] = useUserUpdateMutation();
  const [form, setForm] = useState({
    first_name: '',
    last_name: '',
    phone: '',
    roles: [] as Role[],
    state: 'waiting_auth' as UserState,
  });

  useEffect(() => {
    if (user)
      setForm({
        first_name: user.first_name,
        last_name: user.last_name,
        phone: user.phone ?? '',
        roles: user.roles,
        state: user.state,
      });
  }, [user]);

  if (!valid) return <NonIdealState icon="error" title={MESSAGES.notFound} />;
  if (error)
    return (
      <NonIdealState
        icon="error"
        title={(error as { message?: string }).message ?? MESSAGES.somethingWentWrong}
      />
    );
  if (isLoading || !user) return <Spinner />;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (form.phone && !isValidPhone(form.phone)) return void toast(PHONE_MESSAGE, 'warning');
    try {
      await update({
        id,
        ...form,
        phone: form.phone || null,
      }).unwrap();
      void toast(MESSAGES.changesSaved, 'success');
    } catch (err) {
      void toast((err as { message?: string }).message ?? MESSAGES.somethingWentWrong, 'danger');
    }
  };
  const toggleRole = (role: Role) =>
    setForm((f) => ({
      ...f,
      roles: f.roles.includes(role) ? f.roles.filter((r) => r !== role) : [...f.roles, role],
    }));

  return (
    <Card style={{ maxWidth: 640 }}>
      <H3>{user.email}</H3>
      {!user.email_confirmed_at && <p className="bp6-text-muted">{t('users.emailNotConfirmed')}</p>}
      <form onSubmit={submit}>
        {TEXT_FIELDS.map(([field, label]) => (
          <FormGroup key={field} label={t(label)} labelFor={`user-${field}`} inline>
            <InputGroup
              id={`user-${field}`}
              value={form[field]}
              onValueChange={(v) => setForm((f) => ({ ...f, [field]: v }))}
            />
          </FormGroup>
        ))}
        <FormGroup label={t('users.telegramId')} inline>
          <TelegramState userId={id} />
        </FormGroup>
        <FormGroup label={t('users.roles')} inline>
          {ROLES.map((role) => (
            <Checkbox
              key={role}
              inline
              label={t(`roles.${role}`, { defaultValue: ROLE_LABELS[role] })}
              checked={form.roles.includes(role)}
              onChange={() => toggleRole(role)}
            />
          ))}
        </FormGroup>
        <FormGroup label={t('users.state')} labelFor="user-state" inline>
          <HTMLSelect
            id="user-state"
            value={form.state}
            options={USER_STATES.map((s) => ({ value: s, label: t(`states.${s}`) }))}
            onChange={(e) => {
              // read now: the updater may run after React has released the event
              const state = e.currentTarget.value as UserState;
              setForm((f) => ({ ...f, state }));
            }}
          />
        </FormGroup>
        <Button type="submit" intent="primary" text={t('common.save')} loading={saving} />
      </form>
      <div className="caravan-sections">
        <LinkSection
          title={t('users.clients')}
          link="client_user_link"
          parentField="user_table_id"
          parentId={id}
          targetField="client_id"
          targetEntity="client"
          editable
        />
        <LinkSection
          title={t('users.operators')}
          link="operator_user_link"
          parentField="user_table_id"
          parentId={id}
          targetField="operator_id"
          targetEntity="operator"
          editable
        />
      </div>
    </Card>
  );
}
