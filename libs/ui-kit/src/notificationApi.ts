import type { ListResult, Notification } from '@caravan/contracts';
import { baseApi } from './api';

export type NotificationRow = Notification;
/** A user's channels: the app always; email and Telegram as chosen (docs/adr/0021). */
export type NotificationChannelChoice = { app: true; email: boolean; telegram: boolean };

/** One tag for every notification list and item: a mark read refreshes the bell, the drawer and the admin list. */
const TAGS = [{ type: 'Entity' as const, id: 'notification' }];
/** How many unread the drawer shows at once; the badge counts them all (the list's total). */
export const DRAWER_PAGE = 50;

/**
 * The notification calls of the bell, the drawer, the detail dialog, the admin list and the profile
 * (svc-orders, spec §3–§4): the user's unread ones newest first, mark one or all read, the channels.
 */
export const notificationApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    unreadNotifications: build.query<ListResult<NotificationRow>, number>({
      query: (userId) => ({
        method: 'notification_list',
        params: {
          per_page: DRAWER_PAGE,
          order_by: 'created_at desc',
          // an admin reads everyone's notifications in the admin list: the drawer holds only their own
          where_param: [
            { field: 'user_table_id', op: '=', value: userId },
            { field: 'is_read', op: '=', value: false },
          ],
        },
      }),
      providesTags: TAGS,
    }),
    markNotificationRead: build.mutation<NotificationRow, number>({
      query: (id) => ({ method: 'notification_mark_read', params: { id } }),
      invalidatesTags: TAGS,
    }),
    markAllNotificationsRead: build.mutation<{ count: number; message: string }, void>({
      query: () => ({ method: 'notification_mark_all_read', params: {} }),
      invalidatesTags: TAGS,
    }),
    notificationChannels: build.query<NotificationChannelChoice, void>({
      query: () => ({ method: 'notification_channels_get', params: {} }),
    }),
    updateNotificationChannels: build.mutation<
      NotificationChannelChoice & { message: string },
      Partial<Pick<NotificationChannelChoice, 'email' | 'telegram'>>
    >({
      query: (params) => ({ method: 'notification_channels_update', params }),
      async onQueryStarted(_params, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          const { message: _message, ...choice } = data;
          dispatch(notificationApi.util.upsertQueryData('notificationChannels', undefined, choice));
        } catch {
          // the caller shows the refusal; the stored choice stays as it was
        }
      },
    }),
  }),
});

export const {
  useUnreadNotificationsQuery,
  useMarkNotificationReadMutation,
  useMarkAllNotificationsReadMutation,
  useNotificationChannelsQuery,
  useUpdateNotificationChannelsMutation,
} = notificationApi;
