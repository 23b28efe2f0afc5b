import {
  buyoutWaitingProblems,
  dec,
  decDiv,
  decFormat,
  clientOrder,
  ENTITY_TOPICS,
  isAdmin,
  MESSAGES,
  ORDER_MESSAGES,
  ORDER_PAID_FIELDS,
  PAYMENT_MESSAGES,
  ORDER_DERIVED_FIELDS,
  ORDER_NUMBER_STATES,
  ORDER_OWNER_FIXED_FIELDS,
  orderEditableFields,
  orderFieldsLockedMessage,
  OrderCreatedParams,
  orderCreatedProblems,
  orderTransition,
  type DeliveryType,
  type Identity,
  type OrderStage,
  type OrderState,
  type OrderTransition,
  type PositionFacts,
  RecordIdParams,
} from '@caravan/contracts';
import {
  BusinessError,
  registerEntity,
  titleOf,
  type EntityStore,
  type Procedure,
  type ProcedureRegistry,
  type RuleContext,
  type ServiceKit,
} from '@caravan/service-kit';
import { carrierStatuses } from '../domain/carrierStatus';
import { currentOrderRate, repriceOrder } from '../domain/pricing';
import {
  currentVia,
  livePositions,
  operatorServesClient,
  patchOrder,
  positionMoveFor,
  routeTypeIds,
  runVia,
} from '../domain/stages';

const replicaTitle = (entity: string, column: string) => ({
  sql: `select r.data->>'title' from replica r where r.entity = '${entity}' and r.id = client_order.${column}`,
  kind: 'text' as const,
});

/** A client sell rate for ¥ from the replica: the order's rate_id, else its operator's latest, else the latest general one. */
const rateCny = (where: string) =>
  `(select r.data->>'client_sell_rate_cny' from replica r where r.entity = 'exchange_rate' and not r.deleted and ${where}
    order by r.data->>'date' desc, r.id desc limit 1)`;
const ORDER_RATE_CNY_SQL = `select case when client_order.rate_id is not null
    then ${rateCny('r.id = client_order.rate_id')}
    else coalesce(${rateCny(`(r.data->>'operator_id')::bigint = client_order.operator_id`)},
                  ${rateCny(`r.data->>'operator_id' is null`)}) end`;

const CHOSEN_PAYMENT_STATES = ['not_paid', 'self', 'in_cdek', 'in_caravan'];
const PAID_OF_STATE = {
  product_payment_state: 'product_paid_rur',
  delivery_payment_state: 'delivery_paid_rur',
};

/**
 * Paid amounts and the states they lead to come only from payments (svc-payments' events, ADR 0012),
 * for everyone: a user chooses how they will pay (not paid yet, self, in CDEK, later) while nothing of
 * that part is paid; CDEK collects only for an order it carries (a carrier order uuid), or as the new
 * order's choice.
 */
function assertPaymentChoice(prev: Record<string, unknown>, given: Record<string, unknown>) {
  if (ORDER_PAID_FIELDS.some((f) => f in given)) throw new BusinessError(PAYMENT_MESSAGES.paidByPayments);
  for (const [f, paidField] of Object.entries(PAID_OF_STATE)) {
    if (!(f in given) || given[f] === prev[f]) continue;
    if (!CHOSEN_PAYMENT_STATES.includes(String(given[f])) || Number(prev[paidField] ?? 0) > 0)
      throw new BusinessError(PAYMENT_MESSAGES.paidByPayments);
    if (given[f] === 'in_cdek' && prev.stage !== 'draft' && !prev.transport_company_rus_order_uuid)
      throw new BusinessError(PAYMENT_MESSAGES.inCdekNeedsCarrier);
  }
}

function assertFieldsAllowed(
  identity: Identity,
  prev: Record<string, unknown>,
  given: Record<string, unknown>,
) {
  const fields = Object.keys(given).filter((f) => f !== 'deleted');
  assertPaymentChoice(prev, given);
  if (isAdmin(identity)) return;
  const derived = fields.find((f) => (ORDER_DERIVED_FIELDS as readonly string[]).includes(f));
  if (derived)
    throw new BusinessError(
      ORDER_MESSAGES.computedPrice((clientOrder.labels as Record<string, string>)[derived] ?? derived),
    );
  if ('options' in given) {
    const before = (prev.options as { price_info?: unknown } | null)?.price_info ?? null;
    const after = (given.options as { price_info?: unknown } | null)?.price_info ?? null;
    if (JSON.stringify(before) !== JSON.stringify(after)) throw new BusinessError(MESSAGES.adminOnly);
  }
  const draft = prev.stage === 'draft';
  if (!draft && ('client_id' in given || 'operator_id' in given))
    throw new BusinessError(ORDER_MESSAGES.ownersFixed);
  const allowed = orderEditableFields(prev.stage as OrderStage, identity);
  if (!allowed) return;
  const refused = fields.filter((f) => !allowed.includes(f));
  if (!refused.length) return;
  if (draft) throw new BusinessError(MESSAGES.staffOnly);
  throw new BusinessError(
    orderFieldsLockedMessage(refused, prev.stage as OrderStage, clientOrder.labels as Record<string, string>),
  );
}

/**
 * The order's owners and the version a write was based on (docs/adr/0018-order-fields-and-versions.md):
 * the client of an existing order never changes, for anyone (its positions, their paid goods and the
 * dues would follow another client unchecked); a write carrying an older version than the stored one
 * is refused — a second 'отправлен в РФ' says the order is already there instead of overwriting the
 * first one's dialog fields. A repeated move to the stage the order is at is refused the same way.
 */
function assertOwnerAndVersion({ prev, given, asked }: RuleContext) {
  if (ORDER_OWNER_FIXED_FIELDS.some((f) => f in given)) throw new BusinessError(ORDER_MESSAGES.clientFixed);
  const stage = asked?.stage as OrderStage | undefined;
  const repeated = stage !== undefined && stage !== 'draft' && stage === prev!.stage;
  if (repeated) throw new BusinessError(ORDER_MESSAGES.alreadyAt(stage));
  if ('version' in given) throw new BusinessError(ORDER_MESSAGES.staleVersion);
}

/** A non-admin names an operator serving the order's client (on the operator's client list). */
async function assertOperatorServes(ctx: RuleContext) {
  const { trx, identity, prev, next, given } = ctx;
  if (isAdmin(identity) || (prev && !('client_id' in given) && !('operator_id' in given))) return;
  if (!(await operatorServesClient(trx, Number(next.operator_id), Number(next.client_id))))
    throw new BusinessError(ORDER_MESSAGES.operatorNotServing);
}

/** The fields a create sets beyond the contract's defaults (zod fills in every absent one). */
const DEFAULTS = clientOrder.fields.partial().parse({}) as Record<string, unknown>;
const chosen = (values: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(values).filter(([k, v]) => JSON.stringify(v) !== JSON.stringify(DEFAULTS[k] ?? null)),
  );

const refuse = (problems: string[]) => {
  if (problems.length) throw new BusinessError(problems.join('; '));
};

/** A stage move: the machine, the dialog's fields and required values, the stage's checks, the positions it carries. */
async function applyTransition(ctx: RuleContext, positions: EntityStore, outbox: ServiceKit['outbox']) {
  const { trx, identity, prev, next, given } = ctx;
  const to = next.stage as OrderStage;
  const move = orderTransition(
    { stage: prev!.stage as OrderStage, delivery_type: prev!.delivery_type as DeliveryType },
    to,
    currentVia(),
    identity,
  );
  if (!move.ok) throw new BusinessError(move.message);
  const { transition } = move;
  if (!isAdmin(identity)) {
    const others = Object.keys(given).filter((f) => f !== 'stage' && !transition.fields.includes(f));
    if (others.length) throw new BusinessError(ORDER_MESSAGES.orderLocked);
  }
  const empty = transition.required.filter(
    (f) => next[f] === null || next[f] === undefined || next[f] === '',
  );
  if (empty.length)
    throw new BusinessError(
      empty
        .map((f) => MESSAGES.fieldRequired((clientOrder.labels as Record<string, string>)[f] ?? f))
        .join('; '),
    );
  const rows = await livePositions(trx, prev!.id);
  await checkStage(ctx, transition, rows);
  await positions.changeMany(trx, identity, outbox, rows, positionMoveFor(to, next.buyout_type === 'self'));
}

async function checkStage(ctx: RuleContext, transition: OrderTransition, rows: PositionFacts[]) {
  const { trx, next } = ctx;
  if (transition.to === 'created') {
    const route = next.logistic_route_id as number | null;
    refuse(
      orderCreatedProblems(
        { buyout_type: next.buyout_type as 'self' | 'operator', logistic_route_id: route },
        rows,
        await routeTypeIds(trx, route),
      ),
    );
  }
  if (transition.to === 'buyout_waiting') refuse(buyoutWaitingProblems(rows));
}

/**
 * The rate is fixed when the client is asked to pay (docs/adr/0008-orders.md): the order keeps the
 * rate it was priced at, and a newer rate of the operator no longer moves its prices.
 */
async function fixRate(
  trx: RuleContext['trx'],
  ctx: { identity: Identity; outbox: ServiceKit['outbox']; orders: EntityStore },
  row: Record<string, unknown> & { id: number },
) {
  const rate = await currentOrderRate(trx, row as never);
  if (!rate) return;
  await patchOrder(trx, ctx, row, { rate_id: rate.id });
}

/**
 * What follows from an order's own values (ours): an order accepted by its recipient is done; a
 * density not given is the weight over the volume (kg/m³, 2 decimals).
 */
async function completeOrder(
  trx: RuleContext['trx'],
  ctx: { identity: Identity; outbox: ServiceKit['outbox']; orders: EntityStore },
  prev: Record<string, unknown> | null,
  row: Record<string, unknown> & { id: number },
) {
  const patch: Record<string, unknown> = {};
  if (prev?.stage !== row.stage && row.stage === 'client_confirmed' && row.state !== 'done')
    patch.state = 'done';
  if (row.density === null && row.weight && row.volume && Number(row.volume) > 0)
    patch.density = decFormat(decDiv(dec(String(row.weight)), dec(String(row.volume))), 2);
  if (!Object.keys(patch).length) return;
  await patchOrder(trx, ctx, row, patch);
}

/**
 * The registry as registerEntity sees it, but with client_order_get_by_id answering the order with its
 * shipment history (`carrier_statuses`, oldest first): the one order a reader opens, never the lists.
 * The history is read only after the generic read found the order within the reader's reach.
 */
function withCarrierStatuses(registry: ProcedureRegistry): ProcedureRegistry {
  const wrapped = Object.create(registry) as ProcedureRegistry;
  wrapped.register = function <P, R>(this: ProcedureRegistry, procedure: Procedure<P, R>) {
    if (procedure.name !== 'client_order_get_by_id') return registry.register.call(this, procedure);
    const read = procedure.handler;
    return registry.register.call(this, {
      ...procedure,
      handler: async (ctx: Parameters<typeof read>[0], params: P) => {
        const order = (await read(ctx, params)) as R & { id: number };
        return { ...order, carrier_statuses: await carrierStatuses(ctx.db, order.id) } as R;
      },
    });
  };
  return wrapped;
}

/**
 * Orders (spec §3–§5; docs/access.md, docs/adr/0008-orders.md): a client reaches their clients'
 * orders and writes them in draft, an operator their operators' orders, an admin all. Stages move only
 * by the machine of contracts' orderStages; every move is one transaction with the row locked.
 */
export function registerClientOrder(kit: ServiceKit, positions: EntityStore) {
  const orders: EntityStore = registerEntity(withCarrierStatuses(kit.registry), {
    contract: clientOrder,
    read: 'any',
    write: 'any',
    json: ['delivery_data', 'options', 'extra_service', 'warning_arr'],
    computed: {
      client_title: titleOf('client_order', 'client_id', 'client'),
      operator_title: replicaTitle('operator', 'operator_id'),
      consolidation_warehouse_title: replicaTitle('warehouse_point', 'consolidation_warehouse_id'),
      to_warehouse_title: replicaTitle('warehouse_point', 'to_warehouse_id'),
      logistic_route_title: replicaTitle('logistic_route', 'logistic_route_id'),
      package_title: replicaTitle('extra_service', 'package_id'),
      parent_order_title: titleOf('client_order', 'parent_order_id', 'client_order'),
      // the yuan rate the order is priced at (currentOrderRate's choice) and its route's buyout
      // commission: the position table's per-unit and per-kg prices (contracts' pricing) read them
      rate_cny: { sql: ORDER_RATE_CNY_SQL, kind: 'text' },
      buyout_commission: {
        sql: `select r.data->>'buyout_commission' from replica r where r.entity = 'logistic_route' and r.id = client_order.logistic_route_id`,
        kind: 'text',
      },
      children: {
        sql: `select coalesce(jsonb_agg(jsonb_build_object('id', c.id, 'title', c.title, 'weight', c.weight,
                'transport_company_rus_order_number', c.transport_company_rus_order_number) order by c.id), '[]'::jsonb)
              from client_order c where c.parent_order_id = client_order.id and not c.deleted`,
        kind: 'json',
      },
    },
    rules: async (ctx) => {
      const { identity, prev, next, given } = ctx;
      if (!prev) {
        if (next.stage !== 'draft')
          throw new BusinessError(ORDER_MESSAGES.orderStageBy(next.stage as OrderStage));
        assertFieldsAllowed(identity, { stage: 'draft', options: null }, chosen(given));
        return assertOperatorServes(ctx);
      }
      assertOwnerAndVersion(ctx);
      if ('stage' in given) return applyTransition(ctx, positions, kit.outbox);
      if (ctx.deleted !== undefined && !isAdmin(identity) && prev.stage !== 'draft')
        throw new BusinessError(ORDER_MESSAGES.orderLocked);
      assertFieldsAllowed(identity, prev, given);
      if ('order_number' in given && !ORDER_NUMBER_STATES.includes(next.state as OrderState))
        throw new BusinessError(ORDER_MESSAGES.orderNumberState);
      await assertOperatorServes(ctx);
    },
    afterWrite: async ({ trx, identity, outbox, prev, row }) => {
      if (prev?.stage !== row.stage && row.stage === 'buyout_waiting' && !row.rate_id)
        await fixRate(trx, { identity, outbox, orders }, row);
      await completeOrder(trx, { identity, outbox, orders }, prev, row);
      await repriceOrder(trx, { identity, outbox, orders, positions }, row.id);
    },
    topic: ENTITY_TOPICS.client_order,
  });

  /** Runs a stage move through `_update` under the order's lock, refusing a repeat of the same move. */
  const move =
    (via: OrderTransition['via'], stage: OrderStage) =>
    async (ctx: Parameters<EntityStore['update']>[0], fields: Record<string, unknown> & { id: number }) =>
      ctx.db.transaction(async (trx) => {
        const row = await trx('client_order').where({ id: fields.id }).forUpdate().first('stage');
        if (row?.stage === stage) throw new BusinessError(ORDER_MESSAGES.orderStage(stage, stage));
        return runVia(via, () => orders.update({ ...ctx, db: trx }, { ...fields, stage }));
      });

  kit.registry
    .register({
      name: 'client_order_created',
      params: OrderCreatedParams,
      access: 'any',
      handler: (ctx, { is_working: _informative, ...fields }) =>
        move('client_order_created', 'created')(ctx, fields),
    })
    .register({
      name: 'client_order_buyout_waiting',
      params: RecordIdParams,
      access: 'staff',
      handler: (ctx, p) => move('client_order_buyout_waiting', 'buyout_waiting')(ctx, p),
    });
  return orders;
}
