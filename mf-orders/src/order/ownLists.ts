import type { CurrentUser } from '@caravan/contracts';

/** One of the user's own lists of order ids kept in options.settings (favourites, archive). */
export const ownList = (user: CurrentUser | null, key: 'favourite_orders' | 'archived_orders'): number[] =>
  (user?.options.settings[key] as number[] | undefined) ?? [];
