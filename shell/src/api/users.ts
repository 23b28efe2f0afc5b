import type { CurrentUser, User } from '@caravan/contracts';
import { baseApi, entityEndpoints, type EntityRow } from '@caravan/ui-kit';

export type UserRow = User & EntityRow & { email_confirmed_at: string | null };
export type LinkRow = EntityRow & { user_table_id: number; client_id?: number; operator_id?: number };

/** The shell's own endpoints: users and their links (admin), the profile (everyone). */
export const usersApi = baseApi.injectEndpoints({
  endpoints: (build) => {
    const users = entityEndpoints<UserRow>(build, 'user');
    const clientLinks = entityEndpoints<LinkRow>(build, 'client_user_link');
    const operatorLinks = entityEndpoints<LinkRow>(build, 'operator_user_link');
    return {
      userList: users.list,
      userUpdate: users.update,
      userGet: build.query<UserRow, number>({
        query: (id) => ({ method: 'user_get_by_id', params: { id } }),
        providesTags: [{ type: 'Entity', id: 'user' }],
      }),
      clientUserLinkList: clientLinks.list,
      clientUserLinkUpdate: clientLinks.update,
      operatorUserLinkList: operatorLinks.list,
      operatorUserLinkUpdate: operatorLinks.update,
      profileUpdate: build.mutation<CurrentUser, Record<string, unknown>>({
        query: (params) => ({ method: 'profile_update', params }),
      }),
    };
  },
});

export const {
  useUserListQuery,
  useUserUpdateMutation,
  useUserGetQuery,
  useClientUserLinkListQuery,
  useClientUserLinkUpdateMutation,
  useOperatorUserLinkListQuery,
  useOperatorUserLinkUpdateMutation,
  useProfileUpdateMutation,
} = usersApi;
