import type { PaymentKind } from '@caravan/contracts';
import { baseApi } from '@caravan/ui-kit';
import type { PaymentReceiveResult } from '../store/walletApi';

/** client_order_payment_receive as the payment dialog records it: from a wallet, or an admin's mark. */
export const paymentApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    orderPayment: build.mutation<
      PaymentReceiveResult,
      {
        id: number;
        kind: PaymentKind;
        type: 'wallet' | 'manual';
        amount: string;
        wallet_id?: number;
        test?: boolean;
        comment?: string;
      }
    >({
      query: (params) => ({ method: 'client_order_payment_receive', params }),
    }),
  }),
});
export const { useOrderPaymentMutation } = paymentApi;
