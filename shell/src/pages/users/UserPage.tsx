import {
  Button,
  Card,
  Checkbox,
  FormGroup,
  H3,
  H5,
  HTMLSelect,
  HTMLTable,
  InputGroup,
  NumericInput,
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
} from '@caravan/contracts';
import { toast } from '@caravan/ui-kit';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import {
  useClientUserLinkListQuery,
  useClientUserLinkUpdateMutation,
  useOperatorUserLinkListQuery,
  useOperatorUserLinkUpdateMutation,
  useUserGetQuery,
  useUserUpdateMutation,
  type LinkRow,
} from '../../api/users';

const showError = (err: unknown) =>
  void toast((err as { message?: string }).message ?? MESSAGES.somethingWentWrong, 'danger');

/** The user's links to clients or operators: list, unlink, link by id. */
function Links(props: {
  title: string;
  column: 'client_id' | 'operator_id';
  userId: number;
  rows: LinkRow[];
  save(values: Record<string, unknown> & { id: number }): { unwrap(): Promise<unknown> };
}) {
  const { t } = useTranslation();
  const [target, setTarget] = useState<number | undefined>();
  const link = () =>
    target &&
    props
      .save({ id: -1, [props.column]: target, user_table_id: props.userId })
      .unwrap()
      .then(() => setTarget(undefined), showError);
  return (
    <div style={{ marginTop: 16 }} data-testid={`links-${props.column}`}>
      <H5>{props.title}</H5>
      <HTMLTable compact>
        <tbody>
          {props.rows.map((row) => (
            <tr key={row.id}>
              <td>
                {props.column === 'client_id' ? (
                  <Link to={`/client/${row.client_id}`}>#{row.client_id}</Link>
                ) : (
                  `#${row.operator_id}`
                )}
              </td>
              <td>
                <Button
                  size="small"
                  variant="minimal"
                  icon="cross"
                  text={t('users.removeLink')}
                  onClick={() => props.save({ id: row.id, deleted: true }).unwrap().catch(showError)}
                />
              </td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
      <div style={{ display: 'flex', gap: 8, marginTop: 8 }}>
        <NumericInput
          aria-label={`${props.title}: id`}
          min={1}
          value={target ?? ''}
          onValueChange={(n) => setTarget(Number.isNaN(n) ? undefined : n)}
        />
        <Button text={t('users.addLink')} onClick={link} disabled={!target} />
      </div>
    </div>
  );
}

const TEXT_FIELDS = [
  ['first_name', 'profile.firstName'],
  ['last_name', 'profile.lastName'],
  ['phone', 'profile.phone'],
  ['telegram_id', 'telegram_id'],
] as const;

/** /users/{id} (admin): roles, state (approve, fire, reinstate), telegram_id, client and operator links. */
export function UserPage() {
  const { t } = useTranslation();
  const id = Number(useParams().id);
  const { data: user, isLoading } = useUserGetQuery(id);
  const [update, { isLoading: saving }] = useUserUpdateMutation();
  const { data: clientLinks } = useClientUserLinkListQuery({ filters: { user_table_id: id }, per_page: 100 });
  const { data: operatorLinks } = useOperatorUserLinkListQuery({
    filters: { user_table_id: id },
    per_page: 100,
  });
  const [saveClientLink] = useClientUserLinkUpdateMutation();
  const [saveOperatorLink] = useOperatorUserLinkUpdateMutation();
  const [form, setForm] = useState({
    first_name: '',
    last_name: '',
    phone: '',
    telegram_id: '',
    roles: [] as Role[],
    state: 'waiting_auth' as UserState,
  });

  useEffect(() => {
    if (user)
      setForm({
        first_name: user.first_name,
        last_name: user.last_name,
        phone: user.phone ?? '',
        telegram_id: user.telegram_id ?? '',
        roles: user.roles,
        state: user.state,
      });
  }, [user]);

  if (isLoading || !user) return <Spinner />;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (form.phone && !isValidPhone(form.phone)) return void toast(PHONE_MESSAGE, 'warning');
    try {
      await update({
        id,
        ...form,
        phone: form.phone || null,
        telegram_id: form.telegram_id || null,
      }).unwrap();
      void toast(MESSAGES.changesSaved, 'success');
    } catch (err) {
      showError(err);
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
        <FormGroup label={t('users.roles')} inline>
          {ROLES.map((role) => (
            <Checkbox
              key={role}
              inline
              label={role}
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
      <Links
        title={t('users.clients')}
        column="client_id"
        userId={id}
        rows={clientLinks?.items ?? []}
        save={saveClientLink}
      />
      <Links
        title={t('users.operators')}
        column="operator_id"
        userId={id}
        rows={operatorLinks?.items ?? []}
        save={saveOperatorLink}
      />
    </Card>
  );
}
