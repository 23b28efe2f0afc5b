import { OverlayToaster, Position, type Intent, type Toaster } from '@blueprintjs/core';

let toaster: Promise<Toaster> | null = null;
/** Toasts shown for one form (its refusals), so a later success can take them away. */
const groups = new Map<string, Set<string>>();

/**
 * One toaster for the whole app (ui-kit is a singleton, so remotes share it). A message already on the
 * screen is not shown again: the same text and intent (two screens refusing the same call, a live event
 * and the reply it answers) update the one toast and restart its timeout.
 */
export async function toast(message: string, intent: Intent = 'none', timeout = 5000, group?: string) {
  toaster ??= OverlayToaster.create({ position: Position.TOP });
  const key = `${intent}:${message}`;
  (await toaster).show(
    {
      message,
      intent,
      timeout,
      onDismiss: () => void (group && groups.get(group)?.delete(key)),
    },
    key,
  );
  if (group) groups.set(group, (groups.get(group) ?? new Set()).add(key));
}

/** Dismisses the toasts of a form: its old errors do not outlive the save or calculation that worked. */
export async function clearToasts(group: string) {
  const keys = groups.get(group);
  if (!keys || !toaster) return;
  groups.delete(group);
  const shown = await toaster;
  keys.forEach((key) => shown.dismiss(key));
}
