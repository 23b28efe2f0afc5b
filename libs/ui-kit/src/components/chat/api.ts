import type {
  Chat,
  ChatMessage,
  ChatReadParams,
  ChatTable,
  ChatUnread,
  ListResult,
} from '@caravan/contracts';
import { baseApi } from '../../api';

const tags = (...ids: string[]) => ids.map((id) => ({ type: 'Entity' as const, id }));

/** The chat box's calls (docs/adr/0023): find or open an object's chat, its messages, the unread counts. */
export const chatApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    chatOf: build.query<ListResult<Chat>, { table_name: ChatTable; table_id: number }>({
      query: (filters) => ({ method: 'chat_list', params: { filters, per_page: 1 } }),
      providesTags: tags('chat'),
    }),
    chatGet: build.query<Chat & { message_list: ChatMessage[] }, number>({
      query: (id) => ({ method: 'chat_get_by_id', params: { id } }),
      providesTags: tags('chat', 'chat_message'),
    }),
    chatOpen: build.mutation<Chat, { table_name: ChatTable; table_id: number }>({
      query: (params) => ({ method: 'chat_update', params: { id: -1, ...params } }),
      invalidatesTags: tags('chat'),
    }),
    chatSend: build.mutation<ChatMessage, { chat_id: number; title: string; files: ChatMessage['files'] }>({
      query: (params) => ({ method: 'chat_message_update', params: { id: -1, ...params } }),
      invalidatesTags: tags('chat_message', 'chat_unread'),
    }),
    chatMarkRead: build.mutation<{ chat_id: number; unread_count: number }, ChatReadParams>({
      query: (params) => ({ method: 'chat_mark_read', params }),
      invalidatesTags: tags('chat', 'chat_unread'),
    }),
    chatUnread: build.query<ChatUnread[], void>({
      query: () => ({ method: 'chat_unread_list', params: {} }),
      providesTags: tags('chat_unread'),
    }),
  }),
});
export const {
  useChatOfQuery,
  useChatGetQuery,
  useChatOpenMutation,
  useChatSendMutation,
  useChatMarkReadMutation,
  useChatUnreadQuery,
} = chatApi;
