import type { CurrentUser, User } from '@caravan/contracts';
import { baseApi, entityEndpoints, type EntityRow } from '@caravan/ui-kit';

export type UserRow = User & EntityRow & { email_confirmed_at: string | null };

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
    };
  },
});

export const { useUserListQuery, useUserUpdateMutation, useUserGetQuery, useProfileUpdateMutation } =
  usersApi;
