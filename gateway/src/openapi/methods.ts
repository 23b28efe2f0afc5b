import {
  chat,
  chatMessage,
  ChatReadParams,
  ReportFilters,
  ReportRowsParams,
  task,
  TaskExecutorParams,
  TaskFinishParams,
  acquiringPayment,
  bankAccount,
  CalculateParams,
  city,
  client,
  clientOrder,
  clientOrderPosition,
  ClientOrderTimelineParams,
  clientUserLink,
  country,
  currency,
  CurrentUser,
  entityListParams,
  ENTITY_OWNERS,
  exchangeRate,
  extraService,
  finOperation,
  GetByIdParams,
  HistoryParams,
  LEGAL_ENTITY_LIST_PARAMS,
  ListParams,
  legalEntity,
  logisticProductType,
  logisticRoute,
  logisticRouteProductTypeLink,
  logisticRouteWarehousePointLink,
  METHOD_OWNERS,
  NoParams,
  notification,
  NotificationChannelsUpdateParams,
  NotificationCheckParams,
  NotificationMarkAllReadParams,
  NotificationMarkReadParams,
  operator,
  operatorUserLink,
  operatorWarehousePointLink,
  OrderConsolidateParams,
  OrderCreatedParams,
  OrderDuesParams,
  OrderSplitParams,
  orderPayment,
  packageDescription,
  PaymentReceiveParams,
  PositionActionParams,
  PositionBulkActionParams,
  PositionBulkStepParams,
  PositionBulkUpdateParams,
  PositionImportParams,
  PositionMoveParams,
  PositionPhotoReviewParams,
  ProfileParams,
  provider,
  ReconcileParams,
  RecordIdParams,
  SettingsParams,
  ShipmentGetParams,
  SPECIAL_METHODS,
  TelegramCode,
  TelegramLink,
  TelegramLinkGetParams,
  TgRecipient,
  TgRecipientParams,
  TgSendParams,
  user,
  wallet,
  WalletTransferParams,
  warehousePoint,
  warehousePointContact,
  type EntityContract,
  type EntityName,
  type HistoryEntry,
  type ListResult,
  type Owner,
  type SpecialMethod,
} from '@caravan/contracts';
import { z } from 'zod';

/**
 * What the OpenAPI document says of one `call_pg_func` method: its params (the zod schema the owner
 * validates them with) and its result — a zod schema where the contracts hold one, else null: the
 * reply is then described as any JSON value, honestly, and listed in docs/adr/0026-openapi.md.
 */
export type MethodDoc = {
  method: string;
  owner: Owner;
  /** Groups the methods on the reference page: the entity, or the area of a special method. */
  tag: string;
  summary: string;
  description?: string;
  params: z.ZodType;
  result: z.ZodType | null;
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyContract = EntityContract<any>;

/**
 * Every entity of the routing table and its contract. Keyed by EntityName: an entity added to
 * ENTITY_OWNERS without an entry here fails the typecheck. null: the entity is routed but its fields
 * are not in the contracts yet (its rows are described as any object).
 */
export const ENTITY_CONTRACTS: Record<EntityName, AnyContract | null> = {
  user,
  client_user_link: clientUserLink,
  operator_user_link: operatorUserLink,
  client,
  provider,
  client_order: clientOrder,
  client_order_position: clientOrderPosition,
  notification,
  task,
  chat,
  chat_message: chatMessage,
  wallet,
  fin_operation: finOperation,
  exchange_rate: exchangeRate,
  legal_entity: legalEntity,
  bank_account: bankAccount,
  acquiring_payment: acquiringPayment,
  order_payment: orderPayment,
  country,
  city,
  currency,
  logistic_product_type: logisticProductType,
  package_description: packageDescription,
  warehouse_point: warehousePoint,
  warehouse_point_contact: warehousePointContact,
  operator_warehouse_point_link: operatorWarehousePointLink,
  operator,
  logistic_route: logisticRoute,
  logistic_route_logistic_product_type_link: logisticRouteProductTypeLink,
  logistic_route_warehouse_point_link: logisticRouteWarehousePointLink,
  extra_service: extraService,
};

/** The list parameters an entity's owner adds to the common ones (EntityDefinition.listExtras). */
const LIST_EXTRAS: Partial<Record<EntityName, z.ZodRawShape>> = {
  legal_entity: LEGAL_ENTITY_LIST_PARAMS,
};

// ------------------------------------------------------------------------------------------ generic rows

const BASE_ROW = {
  id: z.number().int(),
  deleted: z.boolean(),
  created_at: z.string().meta({ description: 'ISO 8601 date-time' }),
  updated_at: z.string().meta({ description: 'ISO 8601 date-time' }),
};

const Rights = z.object({ write: z.boolean(), delete: z.boolean() }).meta({
  id: 'Rights',
  description: 'What the reader may do with the row: the item page enables save and delete by it.',
});

/**
 * A stored row as replies carry it: the base columns, the contract's fields (each may be absent: a
 * column the reader may not see is left out) and any read-only column the owner adds (titles of
 * references, computed sums) — those are not in the contracts, hence additional properties.
 */
function rowShape(contract: AnyContract | null): z.ZodRawShape {
  if (!contract) return BASE_ROW;
  const confidential = new Set<string>(contract.confidential ?? []);
  const fields = Object.entries(contract.fields.shape as Record<string, z.ZodType>).map(([name, schema]) => {
    const described = confidential.has(name)
      ? schema
          .nullable()
          .meta({ description: 'confidential: null for readers other than admins and the owners' })
      : schema;
    return [name, described.optional()] as const;
  });
  return { ...BASE_ROW, ...Object.fromEntries(fields) };
}

const ROW_NOTE =
  'Read-only columns added by the owner (titles of references, computed values) come as additional properties.';
const UNDESCRIBED_NOTE =
  'The fields of this entity are not in the contracts yet: any object with the base columns.';

type EntitySchemas = { row: z.ZodType; item: z.ZodType; page: z.ZodType };

const schemasByEntity = new Map<EntityName, EntitySchemas>();
/** One set of schemas per entity: each carries its component id, and an id names one schema. */
function entitySchemas(name: EntityName): EntitySchemas {
  let schemas = schemasByEntity.get(name);
  if (!schemas) schemasByEntity.set(name, (schemas = describeEntity(name, ENTITY_CONTRACTS[name])));
  return schemas;
}

/** What a page of a list carries beside its rows (ListResult). */
const PAGE_SHAPE = {
  total: z.number().int(),
  total_exact: z.boolean(),
  total_estimate: z.number().optional(),
  page: z.number().int(),
  per_page: z.number().int(),
  next_cursor: z.string().nullable(),
};

function describeEntity(name: EntityName, contract: AnyContract | null): EntitySchemas {
  const description = `${contract?.title ?? name}. ${contract ? ROW_NOTE : UNDESCRIBED_NOTE}`;
  const shape = rowShape(contract);
  const row = z.looseObject(shape).meta({ id: `${name}_row`, description });
  const item = z
    .looseObject({ ...shape, _rights: Rights })
    .meta({ id: `${name}_item`, description: `${description} With the reader's rights on it.` });
  const page = z.object({ items: z.array(row), ...PAGE_SHAPE }).meta({
    id: `${name}_page`,
    description:
      "One page of the list. `total` is exact when `total_exact`; otherwise more than 1000 rows match and `total_estimate` is the planner's estimate. `next_cursor` continues after the last row (null: the last page).",
  });
  return { row, item, page };
}

export const HistoryEntrySchema = z
  .object({
    id: z.number().int(),
    datetime: z.string(),
    user_id: z.number().int().nullable(),
    user_full_name: z.string(),
    type: z.string(),
    type_ru: z.string(),
    old_value: z.unknown(),
    new_value: z.unknown(),
  })
  .meta({
    id: 'HistoryEntry',
    description: 'Who changed which field of the record, when, from what to what.',
  });

// The reply schemas restate types the contracts keep as TypeScript: these fail to compile when they drift.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameHistory: Same<z.infer<typeof HistoryEntrySchema>, HistoryEntry> = true;
const samePage: Same<z.infer<z.ZodObject<typeof PAGE_SHAPE>>, Omit<ListResult<unknown>, 'items'>> = true;
void sameHistory;
void samePage;

function genericMethods(name: EntityName, owner: Owner): MethodDoc[] {
  const contract = ENTITY_CONTRACTS[name];
  const { row, item, page } = entitySchemas(name);
  const title = contract?.title ?? name;
  const updateParams = contract
    ? contract.fields.partial().extend({ id: z.number().int(), deleted: z.boolean().optional() })
    : z.looseObject({ id: z.number().int(), deleted: z.boolean().optional() });
  const entity = `Entity: ${title}.`;
  const required = contract?.required.length ? ` Required on create: ${contract.required.join(', ')}.` : '';
  return [
    {
      method: `${name}_list`,
      owner,
      tag: name,
      summary: `${name}: a page of the list`,
      description: `${entity} Common list parameters (spec §7): page, per_page, deleted, order_by, search, filters, where_param (field, operator, value — checked against the entity's columns, never SQL), cursor (seek paging). Reference fields filter by equality.`,
      params: contract ? entityListParams(contract, LIST_EXTRAS[name]) : z.looseObject(ListParams.shape),
      result: page,
    },
    {
      method: `${name}_get_by_id`,
      owner,
      tag: name,
      summary: `${name}: one record with the reader's rights`,
      description: entity,
      params: GetByIdParams,
      result: item,
    },
    {
      method: `${name}_update`,
      owner,
      tag: name,
      summary: `${name}: create (id -1), change the given fields, delete or restore (deleted)`,
      description: `${entity} id -1 creates the record; another id changes only the fields given and writes the history (who, when, field, old, new); deleted: true deletes softly, false restores. An unknown field is refused.${required}`,
      params: updateParams,
      result: row,
    },
    {
      method: `${name}_history`,
      owner,
      tag: name,
      summary: `${name}: the history of one record`,
      description: entity,
      params: HistoryParams,
      result: z.array(HistoryEntrySchema),
    },
  ];
}

// ------------------------------------------------------------------------------------------ special methods

type Special = Omit<MethodDoc, 'method' | 'owner'>;

const row = (name: EntityName) => entitySchemas(name).row;

/**
 * The methods beyond the generic four, keyed by SpecialMethod: one added to the routing table without
 * an entry here fails the typecheck (and the unit test beside this file).
 */
export const SPECIAL_METHOD_DOCS: Record<SpecialMethod, Special> = {
  user_current: {
    tag: 'user',
    summary: 'The signed-in user (answers for any state, so the shell can show the waiting page)',
    params: NoParams,
    result: CurrentUser,
  },
  profile_update: {
    tag: 'user',
    summary: "Changes one's own name, phone and photo",
    params: ProfileParams,
    result: CurrentUser,
  },
  profile_settings_update: {
    tag: 'user',
    summary: "Merges settings into one's own options.settings (favourite and archived orders, widget wallet)",
    params: SettingsParams,
    result: CurrentUser,
  },
  client_order_buyout_waiting: {
    tag: 'client_order',
    summary: 'Staff: moves the order to buyout_waiting (fixes its exchange rate)',
    params: RecordIdParams,
    result: row('client_order'),
  },
  client_order_created: {
    tag: 'client_order',
    summary: 'The client forms a draft order: delivery and payment choices, stage created',
    params: OrderCreatedParams,
    result: row('client_order'),
  },
  client_order_consolidate: {
    tag: 'client_order',
    summary: 'Consolidates orders of one client into one',
    params: OrderConsolidateParams,
    result: null,
  },
  client_order_split: {
    tag: 'client_order',
    summary: 'Splits positions of an order into a new order',
    params: OrderSplitParams,
    result: null,
  },
  client_order_tg_send: {
    tag: 'telegram',
    summary: "Sends a message to the order's other side through Telegram",
    params: TgSendParams,
    result: null,
  },
  client_order_tg_recipient: {
    tag: 'telegram',
    summary: "Who the order's telegram dialog writes to, and whether any of them can be reached",
    params: TgRecipientParams,
    result: TgRecipient,
  },
  telegram_link_get: {
    tag: 'telegram',
    summary: "A user's Telegram link (one's own; an admin may name another user)",
    params: TelegramLinkGetParams,
    result: TelegramLink,
  },
  telegram_link_code_create: {
    tag: 'telegram',
    summary: 'A one-time code to link Telegram, and where to send it',
    params: NoParams,
    result: TelegramCode,
  },
  telegram_link_unlink: {
    tag: 'telegram',
    summary: "Unlinks one's Telegram",
    params: NoParams,
    result: TelegramLink.extend({ message: z.string() }),
  },
  client_order_position_action: {
    tag: 'client_order_position',
    summary: "A position's step (buyout, receive at the warehouse, …)",
    params: PositionActionParams,
    result: null,
  },
  client_order_position_import: {
    tag: 'client_order_position',
    summary: 'Imports positions (the rows of the Excel import dialog) into a draft order',
    params: PositionImportParams,
    result: null,
  },
  client_order_position_bulk_update: {
    tag: 'client_order_position',
    summary: 'Changes the same fields of many positions',
    params: PositionBulkUpdateParams,
    result: null,
  },
  client_order_position_bulk_action: {
    tag: 'client_order_position',
    summary: 'Deletes, restores or copies many positions',
    params: PositionBulkActionParams,
    result: null,
  },
  client_order_position_bulk_step: {
    tag: 'client_order_position',
    summary: 'The same step for many positions',
    params: PositionBulkStepParams,
    result: null,
  },
  client_order_position_move: {
    tag: 'client_order_position',
    summary: 'Moves positions to another order',
    params: PositionMoveParams,
    result: null,
  },
  client_order_position_photo_review: {
    tag: 'client_order_position',
    summary: "The client accepts the warehouse's photos of a position or asks for more",
    params: PositionPhotoReviewParams,
    result: null,
  },
  client_order_timeline: {
    tag: 'client_order',
    summary: "The order's timeline: stages, payments, carrier statuses, chat messages",
    params: ClientOrderTimelineParams,
    result: null,
  },
  notification_mark_read: {
    tag: 'notification',
    summary: "Marks one of one's own notifications read",
    params: NotificationMarkReadParams,
    result: row('notification'),
  },
  notification_mark_all_read: {
    tag: 'notification',
    summary: "Marks all one's own notifications read: how many, and a message",
    params: NotificationMarkAllReadParams,
    result: null,
  },
  notification_channels_get: {
    tag: 'notification',
    summary: "One's notification channels beside the app (email, Telegram)",
    params: NoParams,
    result: null,
  },
  notification_channels_update: {
    tag: 'notification',
    summary: "Changes one's notification channels",
    params: NotificationChannelsUpdateParams,
    result: null,
  },
  notification_check_missing: {
    tag: 'notification',
    summary: 'Admin: runs the check of positions missing at the consolidation warehouse now',
    params: NotificationCheckParams,
    result: null,
  },
  task_action_to_finished: {
    tag: 'task',
    summary: 'Finishes a task with a result and a success rate 0..10',
    params: TaskFinishParams,
    result: null,
  },
  task_executor_list: {
    tag: 'task',
    summary: 'Who may be the responsible of a task on an order',
    params: TaskExecutorParams,
    result: null,
  },
  chat_mark_read: {
    tag: 'chat',
    summary: "Marks a chat's messages read for the caller",
    params: ChatReadParams,
    result: null,
  },
  chat_unread_list: {
    tag: 'chat',
    summary: "The caller's unread message counts per chat",
    params: NoParams,
    result: null,
  },
  client_order_report_rows: {
    tag: 'client_order',
    summary: 'The client order report: one row per order with its sums',
    params: ReportRowsParams,
    result: null,
  },
  client_order_report_summary: {
    tag: 'client_order',
    summary: 'The client order report summary: per client, month and stage',
    params: ReportFilters,
    result: null,
  },
  client_order_payment_receive: {
    tag: 'payments',
    summary: "Pays an order's goods or delivery from a wallet",
    params: PaymentReceiveParams,
    result: null,
  },
  client_order_dues: {
    tag: 'payments',
    summary: 'What an order still owes for goods and delivery',
    params: OrderDuesParams,
    result: null,
  },
  wallet_transfer: {
    tag: 'wallet',
    summary: 'Transfers money between wallets',
    params: WalletTransferParams,
    result: null,
  },
  acquiring_payment_reconcile: {
    tag: 'payments',
    summary: 'Admin: reconciles acquiring payments with the acquirer',
    params: ReconcileParams,
    result: null,
  },
  logistic_route_calculate: {
    tag: 'logistic_route',
    summary: 'The tariff calculator: the cost of a route for a weight and a volume',
    params: CalculateParams,
    result: null,
  },
  client_order_shipment_get: {
    tag: 'carriers',
    summary: "What the order card shows about its carrier (null when the order's carrier is not followed)",
    params: ShipmentGetParams,
    result: null,
  },
};

/** Every `call_pg_func` method of the routing table, described. */
export function methodDocs(): MethodDoc[] {
  const generic = (Object.entries(ENTITY_OWNERS) as [EntityName, Owner][]).flatMap(([name, owner]) =>
    genericMethods(name, owner),
  );
  const special = (Object.entries(SPECIAL_METHOD_DOCS) as [SpecialMethod, Special][]).map(
    ([method, doc]) => ({
      method,
      owner: SPECIAL_METHODS[method],
      ...doc,
    }),
  );
  return [...generic, ...special].sort((a, b) => a.method.localeCompare(b.method));
}

/** Methods of the routing table the catalogue does not describe (none, or the unit test fails). */
export const undescribedMethods = (docs: readonly MethodDoc[]) => {
  const described = new Set(docs.map((d) => d.method));
  return Object.keys(METHOD_OWNERS).filter((m) => !described.has(m));
};
