import {
  acquiringPayment,
  amountWithFee,
  describeIssues,
  ENTITY_TOPICS,
  fail,
  isAdmin,
  MESSAGES,
  ok,
  orderPayment,
  ORDER_DUES_LABELS,
  OrderDuesParams,
  sumMoney,
  type OrderDue,
  type OrderDues,
  PAYMENT_KIND_LABELS,
  PAYMENT_MESSAGES,
  PAYMENT_RECEIVE_LABELS,
  PaymentReceiveParams,
  payableNow,
  paymentClosedReason,
  paymentStatesByPaid,
  SBP_CREATE_LABELS,
  SbpCreateParams,
  type Identity,
  type PaymentKind,
} from '@caravan/contracts';
import {
  identityOf,
  isTransientDbError,
  BusinessError,
  registerEntity,
  titleOf,
  type Db,
  type EntityStore,
  type IdentifiedRequest,
  type ServiceKit,
} from '@caravan/service-kit';
import express, { type Request, type Response } from 'express';
import { AcquirerError, type Acquirer, type AcquirerCallback } from '../adapters/acquirer';
import { qrPngBase64 } from '../adapters/modulbank/qr';
import { postMovements } from '../domain/ledger';
import {
  assertPayer,
  readableOrder,
  readPaid,
  recordOrderPayment,
  paidMessage,
  whyNotPayable,
  withPaid,
  type OrderReplica,
} from '../domain/orderPayments';

/** Roubles: the acquirer takes only them, and order prices are in them (currency id 2). */
const RUB = 2;
export type Row = Record<string, unknown> & { id: number; deleted: boolean };
export type PaymentStores = {
  wallets: EntityStore;
  operations: EntityStore;
  acquiring: EntityStore;
  payments: EntityStore;
};
export type AcquiringSetup = { acquirer: Acquirer; callbackUrl: string; testing: boolean };

const refuseWrites = () => {
  throw new BusinessError(PAYMENT_MESSAGES.byPaymentsOnly);
};

/** acquiring_payment and order_payment: read by their owners (admin all), written only by payments. */
export function registerPaymentEntities(kit: ServiceKit) {
  const acquiring = registerEntity(kit.registry, {
    contract: acquiringPayment,
    read: 'any',
    write: 'admin',
    computed: {
      wallet_title: titleOf('acquiring_payment', 'wallet_id', 'wallet'),
    },
    rules: refuseWrites,
    topic: ENTITY_TOPICS.acquiring_payment,
  });
  const payments = registerEntity(kit.registry, {
    contract: orderPayment,
    read: 'any',
    write: 'admin',
    // ADR 0013: the account's sequence after the payment; a transfer's giving order, its amounts and sequence
    readonlyColumns: [
      'paid_seq',
      'source_order_id',
      'source_product_paid_rur',
      'source_delivery_paid_rur',
      'source_paid_seq',
    ],
    rules: refuseWrites,
    topic: ENTITY_TOPICS.order_payment,
  });
  return { acquiring, payments };
}

/**
 * The wallet an order is paid from: the one named (the client's, in roubles), else the client's default
 * rouble wallet, else their only rouble wallet holding enough — 'не найдено подходящего кошелька'
 * otherwise (spec §8).
 */
async function payingWallet(trx: Db, order: OrderReplica, amount: string, walletId?: number) {
  const q = trx('wallet').where({ client_id: order.client_id, currency_id: RUB, deleted: false });
  if (walletId) {
    const named = (await q.clone().where({ id: walletId }).first('id')) as Row | undefined;
    if (!named) throw new BusinessError(PAYMENT_MESSAGES.noWallet);
    return named.id;
  }
  const wallets = (await q.clone().orderBy('id').select('id', 'amount', 'options')) as (Row & {
    amount: string;
    options: { is_default?: boolean } | null;
  })[];
  const preferred = wallets.find((w) => w.options?.is_default) ?? null;
  if (preferred) return preferred.id;
  const enough = wallets.filter((w) => Number(w.amount) >= Number(amount));
  if (enough[0]) return enough[0].id;
  throw new BusinessError(PAYMENT_MESSAGES.noWallet);
}

/**
 * client_order_payment_receive (spec §7): {id, prepare} answers whether the order can be paid here
 * ('оплата в Caravan недоступна: …' with the reason); {id, kind, type: 'wallet', amount} pays from the
 * client's wallet (a fin_operation and an order_payment in one transaction); {id, kind, type: 'manual'}
 * is an admin marking it paid (amount defaults to what is due). The reply carries the states the paid
 * amounts lead to; svc-orders applies the same from the order_payment event.
 */
export function registerPaymentReceive(kit: ServiceKit, stores: PaymentStores) {
  kit.registry.register({
    name: 'client_order_payment_receive',
    params: PaymentReceiveParams,
    labels: PAYMENT_RECEIVE_LABELS,
    access: 'any',
    handler: async (ctx, p) => {
      const { identity } = ctx;
      if (p.prepare) {
        const order = await readableOrder(ctx.db, identity, p.id);
        const current = withPaid(order, await readPaid(ctx.db, order));
        const reason = whyNotPayable(current, p.kind);
        if (reason) throw new BusinessError(PAYMENT_MESSAGES.unavailable(reason));
        return {
          product_due: payableNow(current, 'product'),
          delivery_due: payableNow(current, 'delivery'),
          ...paymentStatesByPaid(current),
        };
      }
      if (!p.kind || !p.type) throw new BusinessError(PAYMENT_MESSAGES.orderMissing);
      const kind: PaymentKind = p.kind;
      const manual = p.type === 'manual';
      if (manual && !isAdmin(identity)) throw new BusinessError(PAYMENT_MESSAGES.manualAdminOnly);
      if (p.test && !isAdmin(identity)) throw new BusinessError(MESSAGES.adminOnly);
      const key = ctx.idempotencyKey ? `order_payment:${identity.user_id}:${ctx.idempotencyKey}` : '';
      return ctx.db.transaction(async (trx) => {
        const order = await readableOrder(trx, identity, p.id);
        assertPayer(identity, order);
        const reason = whyNotPayable(withPaid(order, await readPaid(trx, order)), kind);
        if (reason) throw new BusinessError(PAYMENT_MESSAGES.unavailable(reason));
        const amount = p.amount ?? payableNow(withPaid(order, await readPaid(trx, order)), kind);
        let finOperationId: number | null = null;
        if (!manual) {
          const walletId = await payingWallet(trx, order, amount, p.wallet_id);
          const [movement] = await postMovements(
            trx,
            { identity, outbox: ctx.outbox, wallets: stores.wallets, operations: stores.operations },
            [
              {
                wallet_id: walletId,
                direction: 'out',
                amount,
                cause: kind === 'product' ? 'order_product' : 'order_delivery',
                type: 'wallet',
                comment: `${PAYMENT_KIND_LABELS[kind]}: ${order.title}`,
                test: p.test,
              },
            ],
            key,
          );
          finOperationId = movement!.id;
        }
        const recorded = await recordOrderPayment(
          trx,
          { identity, outbox: ctx.outbox, payments: stores.payments },
          order,
          {
            kind,
            type: manual ? 'manual' : 'wallet',
            amount,
            fin_operation_id: finOperationId,
            comment: isAdmin(identity) ? p.comment : '',
            key,
            test: p.test,
          },
        );
        return {
          message: manual ? PAYMENT_MESSAGES.stateChanged : paidMessage(recorded.order, kind),
          ...paymentStatesByPaid(recorded.order),
          product_paid_rur: recorded.order.product_paid_rur,
          delivery_paid_rur: recorded.order.delivery_paid_rur,
        };
      });
    },
  });
}

/** Who the money is for and whether the caller may pay it: a wallet's top-up or an order's payment. */
async function payee(trx: Db, identity: Identity, stores: PaymentStores, p: SbpCreateParams) {
  if (p.operation_type === 'wallet') {
    const wallet = await stores.wallets.get(trx, identity, p.wallet_id!);
    if (!isAdmin(identity) && !identity.client_ids.includes(Number(wallet.client_id)))
      throw new BusinessError(MESSAGES.accessDenied);
    if (Number(wallet.currency_id) !== RUB) throw new BusinessError(PAYMENT_MESSAGES.currencyRub);
    return {
      wallet_id: wallet.id,
      client_id: Number(wallet.client_id),
      operator_id: (wallet.operator_id as number | null) ?? null,
      description: `пополнение кошелька «${String(wallet.title)}»`,
    };
  }
  const order = await readableOrder(trx, identity, p.order_id!);
  assertPayer(identity, order);
  const current = withPaid(order, await readPaid(trx, order));
  const reason = whyNotPayable(current, p.kind);
  if (reason) throw new BusinessError(PAYMENT_MESSAGES.unavailable(reason));
  const due = payableNow(current, p.kind!);
  if (Number(p.amount) > Number(due)) throw new BusinessError(PAYMENT_MESSAGES.tooMuch(due));
  return {
    client_order_id: order.id,
    kind: p.kind,
    client_id: Number(order.client_id),
    operator_id: order.operator_id,
    description: `оплата: ${PAYMENT_KIND_LABELS[p.kind!]}, заказ «${order.title}»`,
  };
}

/**
 * POST /api/modul_sbp_create (spec §7): records a pending acquiring_payment, asks the acquirer for an
 * SBP link (img: rendered here as a QR image; link) or a card bill (card), and answers what the
 * payer needs. Nothing moves until the acquirer's signed callback (registerAcquirerCallback).
 */
export function registerSbpCreate(kit: ServiceKit, stores: PaymentStores, setup: AcquiringSetup) {
  kit.api.post('/modul_sbp_create', express.json({ limit: '16kb' }), async (req: Request, res: Response) => {
    const { identity } = req as IdentifiedRequest;
    const parsed = SbpCreateParams.safeParse(req.body ?? {});
    if (!parsed.success)
      return void res.json(fail(describeIssues(parsed.error.issues, req.body, SBP_CREATE_LABELS)));
    const p = parsed.data;
    try {
      if (p.type === 'wallet') throw new BusinessError(PAYMENT_MESSAGES.byTransfer);
      if (p.test && !isAdmin(identity)) throw new BusinessError(MESSAGES.adminOnly);
      const type = p.type;
      const payment = await kit.db.transaction(async (trx) => {
        const target = await payee(trx, identity, stores, p);
        const [row] = await stores.acquiring.insertMany(trx, identity, kit.outbox, [
          {
            operation_type: p.operation_type,
            type,
            wallet_id: target.wallet_id ?? null,
            client_order_id: target.client_order_id ?? null,
            kind: target.kind ?? null,
            client_id: target.client_id,
            operator_id: target.operator_id,
            user_id: identity.user_id,
            amount: p.amount,
            amount_with_fee: amountWithFee(p.amount, type),
            comment: isAdmin(identity) ? p.comment : '',
            test: p.test,
          },
        ]);
        return { row: row!, description: target.description };
      });
      kit.afterWrite();
      const request = {
        orderId: String(payment.row.id),
        amount: String(payment.row.amount_with_fee),
        description: payment.description,
        callbackUrl: setup.callbackUrl,
        testing: setup.testing || p.test,
      };
      const created = { payment_id: payment.row.id, amount_with_fee: String(payment.row.amount_with_fee) };
      try {
        if (type === 'card') {
          const bill = await setup.acquirer.createBill(request);
          await changePayment(
            kit,
            stores,
            identity,
            { id: payment.row.id },
            {
              transaction_id: bill.transactionId,
              payer_url: bill.url,
            },
          );
          return void res.json(ok({ ...created, bill: { url: bill.url } }));
        }
        const sbp = await setup.acquirer.createSbpPayment(request);
        await changePayment(
          kit,
          stores,
          identity,
          { id: payment.row.id },
          {
            transaction_id: sbp.transactionId,
            payer_url: sbp.sbpLink,
          },
        );
        const image = type === 'img' ? await qrPngBase64(sbp.sbpLink) : undefined;
        res.json(ok({ ...created, sbp_link: sbp.sbpLink, ...(image ? { image } : {}) }));
      } catch (err) {
        if (!(err instanceof AcquirerError)) throw err;
        await changePayment(
          kit,
          stores,
          identity,
          { id: payment.row.id, state: 'pending' },
          { state: 'failed', message: err.message },
        );
        res.json(fail(PAYMENT_MESSAGES.acquirerFailed(err.message)));
      }
    } catch (err) {
      if (err instanceof BusinessError) return void res.json(fail(err.message));
      // the database dropped: retryable; a payment left pending is settled by the reconciliation (ADR 0014)
      if (isTransientDbError(err)) {
        kit.log.warn({ err }, 'modul_sbp_create: database unavailable');
        return void res.status(503).json(fail(MESSAGES.serviceUnavailable));
      }
      kit.log.error({ err }, 'modul_sbp_create failed');
      res.status(500).json(fail(MESSAGES.somethingWentWrong));
    }
  });
}

/**
 * Changes one acquiring_payment under its row lock, with history and event: the acquirer's id and the
 * payer's page once the bank answered, or 'failed' with the bank's words while it is still pending.
 */
async function changePayment(
  kit: ServiceKit,
  stores: PaymentStores,
  identity: Identity,
  where: { id: number; state?: 'pending' },
  patch: Record<string, unknown>,
) {
  await kit.db.transaction(async (trx) => {
    const rows = (await trx('acquiring_payment')
      .where(where)
      .forUpdate()
      .select(stores.acquiring.stored)) as Row[];
    await stores.acquiring.changeMany(trx, identity, kit.outbox, rows, () => patch);
  });
  kit.afterWrite();
}

/** The bank's states that end a payment unpaid; any other but COMPLETE is on the way and changes nothing. */
const FINAL_FAILURES = new Set([
  'FAILED',
  'EXPIRED',
  'CANCELLED',
  'CANCELED',
  'REJECTED',
  'DECLINED',
  'REFUNDED',
]);

/** The payer, as the history and the events name who moved the money (the bank acts for them). */
const payerIdentity = (row: Row, fullname = 'банк (платёж)'): Identity =>
  identityOf({ user_id: Number(row.user_id), fullname, roles: ['admin'] });

/** What the bank says of a payment: its callback, or its answer when asked (reconciliation). */
export type BankWord = Pick<
  AcquirerCallback,
  'state' | 'amount' | 'currency' | 'testing' | 'transactionId' | 'message'
>;

/**
 * The one path by which the bank's word changes a payment, the caller holding its row lock: the
 * callback and the reconciliation (ADR 0014) alike. Settled already (a replay, the bank's retry, a
 * callback after the reconciliation credited it) or a state on the way (PROCESSING…): nothing moves.
 * COMPLETE credits once — also after a FAILED (a retried card) or an expiry (a late bank). A word that
 * does not match the payment (amount, currency, test mode) moves nothing ('mismatch'). A final failure
 * is 'failed' with the bank's message from a callback, 'expired' from the reconciliation.
 */
export async function applyBankWord(
  trx: Db,
  kit: ServiceKit,
  stores: PaymentStores,
  setup: AcquiringSetup,
  row: Row,
  word: BankWord,
  via: 'callback' | 'reconciliation',
): Promise<'credited' | 'declined' | 'unchanged' | 'mismatch'> {
  const paid = word.state === 'COMPLETE';
  const failed = FINAL_FAILURES.has(word.state.toUpperCase());
  const settledUnpaid = row.state === 'failed' || row.state === 'expired';
  if (row.state === 'done' || (!paid && (settledUnpaid || !failed))) return 'unchanged';
  if (
    word.amount !== String(row.amount_with_fee) ||
    word.currency.toUpperCase() !== 'RUB' ||
    word.testing !== (setup.testing || Boolean(row.test))
  ) {
    kit.log.error({ id: row.id, word, via }, "the bank's word does not match its payment");
    return 'mismatch';
  }
  if (paid && settledUnpaid)
    kit.log.warn(
      { id: row.id, was: row.state, via },
      'a payment the bank had not taken is complete now: credited',
    );
  const identity = payerIdentity(row, via === 'callback' ? 'банк (платёж)' : 'сверка с банком');
  let message: string;
  if (paid) message = await creditPayment(trx, kit, stores, identity, row);
  else if (via === 'callback') message = word.message || PAYMENT_MESSAGES.declined;
  else
    message = PAYMENT_MESSAGES.expiredByBank(
      word.state.toUpperCase() === 'EXPIRED'
        ? PAYMENT_MESSAGES.expiredNotPaid
        : word.message || PAYMENT_MESSAGES.declined,
    );
  await stores.acquiring.changeMany(trx, identity, kit.outbox, [row], () => ({
    state: paid ? 'done' : via === 'callback' ? 'failed' : 'expired',
    transaction_id: word.transactionId || String(row.transaction_id),
    message,
  }));
  return paid ? 'credited' : 'declined';
}

/** The reconciliation's expiry of a payment the bank never started (no transaction, or unknown to it). */
export async function expireNeverStarted(trx: Db, kit: ServiceKit, stores: PaymentStores, row: Row) {
  const identity = payerIdentity(row, 'сверка с банком');
  await stores.acquiring.changeMany(trx, identity, kit.outbox, [row], () => ({
    state: 'expired',
    message: PAYMENT_MESSAGES.expiredByBank(PAYMENT_MESSAGES.expiredNeverStarted),
  }));
}

/**
 * POST /api/acquiring/callback, public (the gateway passes it without a session): trusted only by its
 * signature. A forged or malformed callback, an unknown payment, an amount or currency that does not
 * match what the payer was asked, or a test callback for a live payment moves nothing. A callback for a
 * payment already paid (a replay, the bank's retry), or of a state on the way (PROCESSING), moves nothing
 * and is answered OK; a COMPLETE after a FAILED (a retried card) is credited.
 * COMPLETE credits the wallet (top_up) or records the order's payment, in one transaction with the
 * payment's state.
 */
export function registerAcquirerCallback(kit: ServiceKit, stores: PaymentStores, setup: AcquiringSetup) {
  const answer = (res: Response, status: number, text: string) =>
    res.status(status).type('text/plain').send(text);
  kit.publicApi.post(
    '/acquiring/callback',
    express.urlencoded({ extended: false, limit: '16kb' }),
    async (req: Request, res: Response) => {
      const form = Object.fromEntries(
        Object.entries((req.body ?? {}) as Record<string, unknown>).map(([k, v]) => [k, String(v)]),
      );
      const callback = setup.acquirer.verifyCallback(form);
      if (!callback) {
        kit.log.warn({ order_id: form.order_id }, 'acquirer callback refused: bad signature');
        return void answer(res, 403, 'ERROR: signature');
      }
      const id = Number(callback.orderId);
      if (!Number.isSafeInteger(id) || id <= 0) return void answer(res, 404, 'ERROR: unknown payment');
      try {
        const outcome = await kit.db.transaction(async (trx) => {
          const [row] = (await trx('acquiring_payment')
            .where({ id })
            .forUpdate()
            .select(stores.acquiring.stored)) as Row[];
          if (!row) return { status: 404, text: 'ERROR: unknown payment' };
          const applied = await applyBankWord(trx, kit, stores, setup, row, callback, 'callback');
          if (applied === 'mismatch')
            return { status: 400, text: 'ERROR: amount, currency or mode mismatch' };
          return { status: 200, text: `OK${id}` };
        });
        kit.afterWrite();
        answer(res, outcome.status, outcome.text);
      } catch (err) {
        // the bank retries whatever is not 2xx; a dropped database is a 503 (nothing moved), not our fault
        if (isTransientDbError(err)) {
          kit.log.warn({ err, id }, 'acquirer callback: database unavailable');
          return void answer(res, 503, 'ERROR: try again');
        }
        kit.log.error({ err, id }, 'acquirer callback failed');
        answer(res, 500, 'ERROR: try again');
      }
    },
  );
}

/**
 * What a completed payment does: the wallet's top-up, or the order's payment (recorded even if it
 * overpays). Returns the spec's success text for the payer.
 */
async function creditPayment(
  trx: Db,
  kit: ServiceKit,
  stores: PaymentStores,
  identity: Identity,
  row: Row,
): Promise<string> {
  const key = `acquiring_payment:${row.id}`;
  if (row.operation_type === 'wallet') {
    await postMovements(
      trx,
      { identity, outbox: kit.outbox, wallets: stores.wallets, operations: stores.operations },
      [
        {
          wallet_id: Number(row.wallet_id),
          direction: 'in',
          amount: String(row.amount),
          cause: 'top_up',
          type: row.type as 'img' | 'link' | 'card',
          comment: String(row.comment ?? ''),
          test: Boolean(row.test),
        },
      ],
      key,
    );
    return PAYMENT_MESSAGES.toppedUp(String(row.amount));
  }
  const order = (await trx('replica')
    .where({ entity: 'client_order', id: row.client_order_id })
    .first('data')) as { data: OrderReplica } | undefined;
  if (!order)
    throw new Error(`order ${String(row.client_order_id)} of payment ${row.id} is not in the replica`);
  const recorded = await recordOrderPayment(
    trx,
    { identity, outbox: kit.outbox, payments: stores.payments },
    order.data,
    {
      kind: row.kind as PaymentKind,
      type: row.type as 'img' | 'link' | 'card',
      amount: String(row.amount),
      acquiring_payment_id: row.id,
      key,
      test: Boolean(row.test),
      comment: String(row.comment ?? ''),
      overpayAllowed: true,
    },
  );
  return paidMessage(recorded.order, row.kind as PaymentKind);
}

/**
 * client_order_dues: the orders of the caller's clients (an admin: of the named client) that have
 * something to pay here, with their dues from what svc-payments recorded as paid.
 */
export function registerOrderDues(kit: ServiceKit) {
  kit.registry.register({
    name: 'client_order_dues',
    params: OrderDuesParams,
    labels: ORDER_DUES_LABELS,
    access: 'any',
    readOnly: true,
    handler: async (ctx, p): Promise<OrderDues> => {
      const { identity } = ctx;
      // the named client's orders (an operator: of their operators only), else the caller's clients'
      const clients = p.client_id ? [p.client_id] : isAdmin(identity) ? [] : identity.client_ids;
      const operators = isAdmin(identity) ? null : identity.operator_ids;
      const { rows } = (await ctx.db.raw(
        `select r.data, a.product_paid_rur, a.delivery_paid_rur
           from replica r left join order_account a on a.client_order_id = r.id
          where r.entity = 'client_order' and not r.deleted
            and (r.data->>'client_id')::bigint = any(?::bigint[])
            and r.data->>'stage' <> 'draft' and coalesce(r.data->>'state', '') <> 'cancelled'
            and (?::bigint[] is null or (r.data->>'operator_id')::bigint = any(?::bigint[])
                 or (r.data->>'client_id')::bigint = any(?::bigint[]))
          order by r.id desc`,
        [clients, operators, operators, identity.client_ids],
      )) as {
        rows: { data: OrderReplica; product_paid_rur: string | null; delivery_paid_rur: string | null }[];
      };
      const dues: OrderDue[] = [];
      for (const r of rows) {
        // a formed order is not payable yet (paymentClosedReason): the write-off must not offer it
        if (paymentClosedReason(r.data)) continue;
        const order =
          r.product_paid_rur === null
            ? r.data
            : withPaid(r.data, {
                product_paid_rur: r.product_paid_rur,
                delivery_paid_rur: String(r.delivery_paid_rur),
              });
        const product = payableNow(order, 'product');
        const delivery = payableNow(order, 'delivery');
        const due = sumMoney([product, delivery]);
        if (Number(due) <= 0) continue;
        dues.push({
          id: order.id,
          title: order.title,
          stage: order.stage,
          client_id: Number(order.client_id),
          product_due: product,
          delivery_due: delivery,
          due,
          ...paymentStatesByPaid(order),
        });
      }
      const start = (p.page - 1) * p.per_page;
      return {
        rows: dues.slice(start, start + p.per_page),
        count: dues.length,
        total_due: sumMoney(dues.map((d) => d.due)),
        product_due: sumMoney(dues.map((d) => d.product_due)),
        delivery_due: sumMoney(dues.map((d) => d.delivery_due)),
      };
    },
  });
}
