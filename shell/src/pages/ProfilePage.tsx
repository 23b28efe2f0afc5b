import { Button, Card, FormGroup, H3, InputGroup } from '@blueprintjs/core';
import { PHONE_MESSAGE, isValidPhone, MESSAGES, type CurrentUser } from '@caravan/contracts';
import { SingleImage, toast } from '@caravan/ui-kit';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useProfileUpdateMutation } from '../api/users';
import { NotificationChannels } from './NotificationChannels';
import { TelegramLink } from './TelegramLink';

type Props = { user: CurrentUser; onExit(): void; onSaved(user: CurrentUser): void };

/**
 * /profile (spec §2): first name, last name, phone (+7 rule), photo, exit; the Telegram link (ADR 0022);
 * the notification channels (ADR 0021).
 */
export function ProfilePage({ user, onExit, onSaved }: Props) {
  const { t } = useTranslation();
  const [values, setValues] = useState({
    first_name: user.first_name,
    last_name: user.last_name,
    phone: user.phone ?? '',
    photo: user.avatar ?? '',
  });
  const [phoneError, setPhoneError] = useState<string | undefined>();
  const [save, { isLoading }] = useProfileUpdateMutation();
  const set = (field: keyof typeof values) => (value: string) => setValues((v) => ({ ...v, [field]: value }));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const phone = values.phone.replace(/[\s()-]/g, '');
    if (phone && !isValidPhone(phone)) return setPhoneError(PHONE_MESSAGE);
    setPhoneError(undefined);
    try {
      const updated = await save({
        first_name: values.first_name,
        last_name: values.last_name,
        photo: values.photo || null,
        phone: phone || null,
      }).unwrap();
      onSaved(updated);
      void toast(MESSAGES.changesSaved, 'success');
    } catch (err) {
      void toast((err as { message?: string }).message ?? MESSAGES.somethingWentWrong, 'danger');
    }
  };

  return (
    <Card style={{ maxWidth: 520 }}>
      <H3>{t('profile.title')}</H3>
      <p className="bp6-text-muted">{user.email}</p>
      <form onSubmit={submit}>
        <FormGroup label={t('profile.firstName')} labelFor="profile-first-name">
          <InputGroup id="profile-first-name" value={values.first_name} onValueChange={set('first_name')} />
        </FormGroup>
        <FormGroup label={t('profile.lastName')} labelFor="profile-last-name">
          <InputGroup id="profile-last-name" value={values.last_name} onValueChange={set('last_name')} />
        </FormGroup>
        <FormGroup
          label={t('profile.phone')}
          labelFor="profile-phone"
          helperText={phoneError}
          intent={phoneError ? 'danger' : 'none'}
        >
          <InputGroup
            id="profile-phone"
            placeholder="+79001234567"
            value={values.phone}
            onValueChange={set('phone')}
            intent={phoneError ? 'danger' : 'none'}
          />
        </FormGroup>
        <FormGroup label={t('profile.photo')}>
          <SingleImage value={values.photo || null} onChange={(photo) => set('photo')(photo ?? '')} />
        </FormGroup>
        <Button type="submit" intent="primary" text={t('common.save')} loading={isLoading} />
        <Button icon="log-out" text={t('layout.exit')} onClick={onExit} style={{ marginLeft: 8 }} />
      </form>
      <TelegramLink />
      <NotificationChannels />
    </Card>
  );
}
