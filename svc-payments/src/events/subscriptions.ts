import type { Subscription } from '@caravan/service-kit';

/** svc-payments consumes nothing yet; order events arrive with the payments work. */
export const subscriptions: Subscription[] = [];
