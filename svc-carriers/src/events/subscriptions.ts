import type { Subscription } from '@caravan/service-kit';

/** svc-carriers owns reference data and consumes nothing yet. */
export const subscriptions: Subscription[] = [];
