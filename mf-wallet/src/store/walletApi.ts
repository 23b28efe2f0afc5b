import {
  Money,
  LEDGER_MESSAGES,
  type AcquiringMethod,
  type CurrentUser,
  type ListResult,
  type OrderDues,
  type PaymentKind,
  type Reply,
  type SettingsParams,
  type Wallet,
} from '@caravan/contracts';
import { baseApi, postApi } from '@caravan/ui-kit';

const tag = (id: string) => ({ type: 'Entity' as const, id });
/** The tag of what the client's orders owe: refetched when money moves (the widget's 'к оплате'). */
const DUES = 'client_order_dues';
/** What a payment or a transfer changes: balances, the ledger, what orders still owe. */
const MONEY_TAGS = [
  tag('wallet'),
  tag('fin_operation'),
  tag('client_order'),
  tag('order_payment'),
  tag('acquiring_payment'),
];

/** Every wallet a user may use fits one page (a client has a few; the settings dialog lists them all). */
export const WALLETS_PER_PAGE = 500;

export type PaymentReceiveResult = {
  message: string;
  product_payment_state: string;
  delivery_payment_state: string;
};

/**
 * The wallet remote's own calls (spec §7): the user's wallets, what their orders owe (client_order_dues),
 * a wallet's default flag and deletion, the transfer between wallets, an order paid from a wallet, the
 * widget's wallet in the user's settings. Mutations carry an Idempotency-Key (ui-kit's callPgFunc).
 */
export const walletApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    walletsOfUser: build.query<ListResult<Wallet>, void>({
      query: () => ({
        method: 'wallet_list',
        params: { per_page: WALLETS_PER_PAGE, order_by: 'id asc' },
      }),
      providesTags: [tag('wallet')],
    }),
    walletDues: build.query<OrderDues, { client_id?: number; page?: number; per_page?: 20 | 50 }>({
      query: (params) => ({ method: 'client_order_dues', params }),
      providesTags: [tag(DUES), tag('client_order'), tag('order_payment')],
    }),
    walletChange: build.mutation<
      Wallet,
      { id: number; deleted?: boolean; options?: { is_default: boolean } }
    >({
      query: (params) => ({ method: 'wallet_update', params }),
      invalidatesTags: [tag('wallet')],
    }),
    walletTransfer: build.mutation<
      { message: string },
      {
        sender_wallet_id: number;
        receiver_wallet_id: number;
        amount: string;
        comment?: string;
        test?: boolean;
      }
    >({
      query: (params) => ({ method: 'wallet_transfer', params }),
      invalidatesTags: MONEY_TAGS,
    }),
    /** One payment of an order from a wallet; the write-off refreshes the lists itself when it is done. */
    walletPayOrder: build.mutation<
      PaymentReceiveResult,
      { id: number; kind: PaymentKind; type: 'wallet'; wallet_id: number; amount: string }
    >({
      query: (params) => ({ method: 'client_order_payment_receive', params }),
    }),
    /** {id, prepare}: can the order be paid here, and what is payable now of each part. */
    walletPrepareOrder: build.mutation<{ product_due: string; delivery_due: string }, { id: number }>({
      query: ({ id }) => ({ method: 'client_order_payment_receive', params: { id, prepare: true } }),
    }),
    walletSettings: build.mutation<CurrentUser, SettingsParams>({
      query: (params) => ({ method: 'profile_settings_update', params }),
    }),
  }),
});

export const {
  useWalletsOfUserQuery,
  useWalletDuesQuery,
  useWalletChangeMutation,
  useWalletTransferMutation,
  useWalletPayOrderMutation,
  useWalletPrepareOrderMutation,
  useWalletSettingsMutation,
} = walletApi;

/** Everything a payment changes, refetched: after a top-up, a transfer or a write-off. */
export const moneyChanged = () => baseApi.util.invalidateTags([...MONEY_TAGS, tag(DUES)]);
/** A movement of a wallet seen on the live stream: the dues and the ledger lists are read again. */
export const movementSeen = () => baseApi.util.invalidateTags([tag(DUES), tag('fin_operation')]);
/** An order of the user changed (priced, asked for payment, paid elsewhere): what the orders owe is read again. */
export const duesChanged = () => baseApi.util.invalidateTags([tag(DUES)]);
/** A wallet the cached list does not hold as it is (new, deleted, another one changed by a rule). */
export const walletsChanged = () => baseApi.util.invalidateTags([tag('wallet')]);

/** The reply of POST /api/modul_sbp_create for a top-up. */
export type SbpCreated = {
  payment_id: number;
  /** what the payer pays the bank: the amount with the method's fee */
  amount_with_fee?: string;
  image?: string;
  sbp_link?: string;
  bill?: { url: string };
};

/**
 * POST /api/modul_sbp_create (spec §7): a top-up of a wallet through the bank. The reply's message is
 * the service's ('что-то пошло не так: …' when the acquirer failed); a lost answer says so too.
 */
export const createTopUp = (params: {
  type: AcquiringMethod;
  wallet_id: number;
  amount: string;
  comment?: string;
  test?: boolean;
}): Promise<Reply<SbpCreated>> =>
  postApi<SbpCreated>('modul_sbp_create', { operation_type: 'wallet', ...params });

/**
 * An amount as typed for a top-up or a transfer: the contracts' money rule (at most 2 decimals) and
 * above 0. The message to show, or null when it is fine.
 */
export function amountProblem(amount: string | null): string | null {
  if (amount === null || amount === '') return LEDGER_MESSAGES.positive;
  const parsed = Money.safeParse(amount);
  if (!parsed.success) return parsed.error.issues[0]?.message ?? LEDGER_MESSAGES.positive;
  return Number(parsed.data) > 0 ? null : LEDGER_MESSAGES.positive;
}
