import { Button, NonIdealState } from '@blueprintjs/core';
import { MESSAGES, type UserState } from '@caravan/contracts';

/** waiting_auth and fired users see only this (spec §2); the stored token is already cleared. */
export function StatePage({ state, onBack }: { state: Exclude<UserState, 'working'>; onBack(): void }) {
  return (
    <NonIdealState
      icon={state === 'fired' ? 'blocked-person' : 'time'}
      title={state === 'fired' ? MESSAGES.fired : MESSAGES.waitingAuth}
      action={<Button text="ко входу" onClick={onBack} />}
    />
  );
}
