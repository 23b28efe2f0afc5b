import type { CurrentUser, SettingsParams, TgRecipient, TgSendParams } from '@caravan/contracts';
import { baseApi, useDocumentListQuery } from '@caravan/ui-kit';

const ORDER_TAGS = [
  { type: 'Entity' as const, id: 'client_order' },
  { type: 'Entity' as const, id: 'client_order_position' },
];

/** The order's own calls beyond the generic ones (spec §7): stage moves, position actions and the bulk tools. */
export const orderApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    orderCall: build.mutation<
      unknown,
      {
        method:
          | 'client_order_created'
          | 'client_order_buyout_waiting'
          | 'client_order_position_action'
          | 'client_order_position_import'
          | 'client_order_position_bulk_update'
          | 'client_order_position_bulk_action'
          | 'client_order_position_move'
          | 'client_order_position_bulk_step'
          | 'client_order_consolidate'
          | 'client_order_split';
        params: Record<string, unknown>;
      }
    >({
      query: ({ method, params }) => ({ method, params }),
      invalidatesTags: ORDER_TAGS,
    }),
    settingsUpdate: build.mutation<CurrentUser, SettingsParams>({
      query: (params) => ({ method: 'profile_settings_update', params }),
    }),
    // the telegram dialog (ADR 0022): who it writes to, and the send; the order itself does not change
    tgRecipient: build.query<TgRecipient, number>({
      query: (id) => ({ method: 'client_order_tg_recipient', params: { id } }),
    }),
    tgSend: build.mutation<{ sent: number; message: string }, TgSendParams>({
      query: (params) => ({ method: 'client_order_tg_send', params }),
    }),
  }),
});
/** Positions a page of the order's table holds (the first page also serves the card's header). */
export const POSITION_PAGE_SIZE = 500;

/** The positions of one order, as the card's header and table both read them (one request serves both). */
export const usePositionsOfOrder = (orderId: number, skip = false, page = 1) =>
  useDocumentListQuery(
    {
      entity: 'client_order_position',
      params: {
        where_param: [{ field: 'client_order_id', op: '=', value: orderId }],
        per_page: POSITION_PAGE_SIZE,
        order_by: 'id asc',
        ...(page > 1 ? { page } : {}),
      },
    },
    { skip },
  );

export const { useOrderCallMutation, useSettingsUpdateMutation, useTgRecipientQuery, useTgSendMutation } =
  orderApi;
