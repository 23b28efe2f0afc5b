import type {
  CdekOrderCreateResult,
  CntWaybillInfo,
  JdeOrderGetResult,
  OzonPosting,
  PecOrderGetResult,
  ShipmentView,
} from '@caravan/contracts';
import { baseApi, postApi, type PgError } from '@caravan/ui-kit';

const ORDER_TAG = { type: 'Entity' as const, id: 'client_order' };

/**
 * An svc-carriers Express path (POST /api/<path>, reply {ok, result, message}) as an RTK endpoint: a
 * refusal becomes an error carrying the server's words, so the card shows them as they are.
 */
const express =
  <T>(path: string) =>
  async (body: unknown): Promise<{ data: T } | { error: PgError }> => {
    const reply = await postApi<T>(path, body);
    return reply.ok ? { data: reply.result } : { error: { status: 200, message: reply.message } };
  };

/** The carrier calls of the order card and the position screen (issue 18, spec §5, §7). */
export const carrierApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    /** What svc-carriers knows of the order's shipment: status, last check, last failure, history. */
    shipmentGet: build.query<ShipmentView | null, number>({
      query: (clientOrderId) => ({
        method: 'client_order_shipment_get',
        params: { client_order_id: clientOrderId },
      }),
      providesTags: [ORDER_TAG],
    }),
    cdekOrderCreate: build.mutation<CdekOrderCreateResult, { client_order_id: number }>({
      queryFn: express<CdekOrderCreateResult>('cdek_order_create'),
      invalidatesTags: [ORDER_TAG],
    }),
    pecOrderGet: build.mutation<PecOrderGetResult, { order_id: number }>({
      queryFn: express<PecOrderGetResult>('pec_order_get'),
      invalidatesTags: [ORDER_TAG],
    }),
    jdeOrderGet: build.mutation<JdeOrderGetResult, { order_id: number }>({
      queryFn: express<JdeOrderGetResult>('jde_order_get'),
      invalidatesTags: [ORDER_TAG],
    }),
    ozonPostingGet: build.mutation<OzonPosting, { client_order_id: number; posting_number: string }>({
      queryFn: express<OzonPosting>('ozon_posting_get'),
    }),
    cntWaybillRegister: build.mutation<
      unknown,
      { warehouse_alias: string; number: string; waybill: string; order_id?: number }
    >({
      queryFn: express<unknown>('cnt_waybill_register'),
    }),
    cntWaybillGet: build.query<CntWaybillInfo, string>({
      queryFn: (waybill) => express<CntWaybillInfo>('cnt_waybill_get')({ waybill }),
    }),
  }),
});

export const {
  useShipmentGetQuery,
  useCdekOrderCreateMutation,
  usePecOrderGetMutation,
  useJdeOrderGetMutation,
  useOzonPostingGetMutation,
  useCntWaybillRegisterMutation,
  useCntWaybillGetQuery,
} = carrierApi;
