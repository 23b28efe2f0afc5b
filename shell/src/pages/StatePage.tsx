import { Button, NonIdealState } from '@blueprintjs/core';
import { MESSAGES, type UserState } from '@caravan/contracts';
import { useTranslation } from 'react-i18next';

/** waiting_auth and fired users see only this (spec §2); the stored token is already cleared. */
export function StatePage({ state, onBack }: { state: Exclude<UserState, 'working'>; onBack(): void }) {
  const { t } = useTranslation();
  return (
    <NonIdealState
      icon={state === 'fired' ? 'blocked-person' : 'time'}
      title={state === 'fired' ? MESSAGES.fired : MESSAGES.waitingAuth}
      action={<Button text={t('auth.toLogin')} onClick={onBack} />}
    />
  );
}
