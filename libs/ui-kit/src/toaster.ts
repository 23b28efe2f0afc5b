import { OverlayToaster, Position, type Intent, type Toaster } from '@blueprintjs/core';

let toaster: Promise<Toaster> | null = null;

/** One toaster for the whole app (ui-kit is a singleton, so remotes share it). */
export async function toast(message: string, intent: Intent = 'none', timeout = 5000) {
  toaster ??= OverlayToaster.create({ position: Position.TOP });
  (await toaster).show({ message, intent, timeout });
}
