import type { CurrentUser, TelegramCode, TelegramLink, User } from '@caravan/contracts';
import { baseApi, entityEndpoints, type EntityRow } from '@caravan/ui-kit';

export type UserRow = User & EntityRow & { email_confirmed_at: string | null };

const TELEGRAM_TAG = { type: 'Entity' as const, id: 'telegram_link' };

/** The shell's own endpoints: users (admin), the profile (everyone); the links go through the generic document API. */
export const usersApi = baseApi.injectEndpoints({
  endpoints: (build) => {
    const users = entityEndpoints<UserRow>(build, 'user');
    return {
      userList: users.list,
      userUpdate: users.update,
      userGet: build.query<UserRow, number>({
        query: (id) => ({ method: 'user_get_by_id', params: { id } }),
        providesTags: [{ type: 'Entity', id: 'user' }],
      }),
      profileUpdate: build.mutation<CurrentUser, Record<string, unknown>>({
        query: (params) => ({ method: 'profile_update', params }),
      }),
      // the user's Telegram link (svc-orders, ADR 0022): their own, or any user's for an admin
      telegramLinkGet: build.query<TelegramLink, number | undefined>({
        query: (userId) => ({ method: 'telegram_link_get', params: userId ? { user_id: userId } : {} }),
        providesTags: [TELEGRAM_TAG],
      }),
      telegramCodeCreate: build.mutation<TelegramCode, void>({
        query: () => ({ method: 'telegram_link_code_create', params: {} }),
      }),
      telegramUnlink: build.mutation<TelegramLink & { message: string }, void>({
        query: () => ({ method: 'telegram_link_unlink', params: {} }),
        invalidatesTags: [TELEGRAM_TAG],
      }),
    };
  },
});

export const {
  useUserListQuery,
  useUserUpdateMutation,
  useUserGetQuery,
  useProfileUpdateMutation,
  useTelegramLinkGetQuery,
  useTelegramCodeCreateMutation,
  useTelegramUnlinkMutation,
} = usersApi;
