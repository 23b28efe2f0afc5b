/**
 * Who answers what: every `call_pg_func` method and every HTTP path of the spec belongs to exactly one
 * owner (ARCHITECTURE §3). The gateway routes from this table; services refuse to register a method
 * they do not own; a test fails when a method of the spec has no owner.
 */
export const OWNERS = ['gateway', 'orders', 'payments', 'carriers'] as const;
export type Owner = (typeof OWNERS)[number];
export type ServiceName = Exclude<Owner, 'gateway'>;
export const SERVICES: readonly ServiceName[] = ['orders', 'payments', 'carriers'];

/** Entities edited through the generic methods `<entity>_list|_get_by_id|_update|_history`. */
export const ENTITY_OWNERS = {
  user: 'gateway',
  client_user_link: 'gateway',
  operator_user_link: 'gateway',

  client: 'orders',
  provider: 'orders',
  client_order: 'orders',
  client_order_position: 'orders',
  notification: 'orders',
  task: 'orders',
  chat: 'orders',
  chat_message: 'orders',

  wallet: 'payments',
  fin_operation: 'payments',
  exchange_rate: 'payments',
  legal_entity: 'payments',
  bank_account: 'payments',
  acquiring_payment: 'payments',
  order_payment: 'payments',

  country: 'carriers',
  city: 'carriers',
  currency: 'carriers',
  logistic_product_type: 'carriers',
  package_description: 'carriers',
  warehouse_point: 'carriers',
  warehouse_point_contact: 'carriers',
  operator_warehouse_point_link: 'carriers',
  operator: 'carriers',
  logistic_route: 'carriers',
  logistic_route_logistic_product_type_link: 'carriers',
  logistic_route_warehouse_point_link: 'carriers',
  extra_service: 'carriers',
} as const satisfies Record<string, Owner>;
/** An entity with the generic methods; a map keyed by it (the OpenAPI catalogue) fails to compile when one is added. */
export type EntityName = keyof typeof ENTITY_OWNERS;

export const GENERIC_SUFFIXES = ['_list', '_get_by_id', '_update', '_history'] as const;

/** Methods beyond the generic four (spec §7 of orders-payments-calls, §4 of product-core). */
export const SPECIAL_METHODS = {
  user_current: 'gateway',
  profile_update: 'gateway',
  profile_settings_update: 'gateway',
  client_order_buyout_waiting: 'orders',
  client_order_created: 'orders',
  client_order_consolidate: 'orders',
  client_order_split: 'orders',
  client_order_tg_send: 'orders',
  client_order_tg_recipient: 'orders',
  telegram_link_get: 'orders',
  telegram_link_code_create: 'orders',
  telegram_link_unlink: 'orders',
  client_order_position_action: 'orders',
  client_order_position_import: 'orders',
  client_order_position_bulk_update: 'orders',
  client_order_position_bulk_action: 'orders',
  client_order_position_move: 'orders',
  notification_mark_read: 'orders',
  notification_mark_all_read: 'orders',
  notification_channels_get: 'orders',
  notification_channels_update: 'orders',
  notification_check_missing: 'orders',
  task_action_to_finished: 'orders',
  task_executor_list: 'orders',
  chat_mark_read: 'orders',
  chat_unread_list: 'orders',
  client_order_payment_receive: 'payments',
  client_order_dues: 'payments',
  wallet_transfer: 'payments',
  logistic_route_calculate: 'carriers',
  acquiring_payment_reconcile: 'payments',
  client_order_position_bulk_step: 'orders',
  client_order_shipment_get: 'carriers',
  client_order_timeline: 'orders',
  client_order_position_photo_review: 'orders',
  client_order_report_rows: 'orders',
  client_order_report_summary: 'orders',
} as const satisfies Record<string, Owner>;
export type SpecialMethod = keyof typeof SPECIAL_METHODS;

function buildMethodTable(): Record<string, Owner> {
  const table: Record<string, Owner> = { ...SPECIAL_METHODS };
  for (const [entity, owner] of Object.entries(ENTITY_OWNERS)) {
    for (const suffix of GENERIC_SUFFIXES) table[`${entity}${suffix}`] = owner;
  }
  return table;
}

export const METHOD_OWNERS: Readonly<Record<string, Owner>> = Object.freeze(buildMethodTable());

/** HTTP paths under /api (spec §7 HTTP calls, the gateway's own auth and infrastructure paths). */
export const HTTP_OWNERS = Object.freeze({
  '/api/login': 'gateway',
  '/api/logout': 'gateway',
  '/api/user_current': 'gateway',
  '/api/register': 'gateway',
  '/api/recover_password': 'gateway',
  '/api/check_user_email': 'gateway',
  '/api/email_auth_recover_password': 'gateway',
  '/api/sse': 'gateway',
  '/api/remotes': 'gateway',
  '/api/catalogue': 'gateway',
  /** This API described as OpenAPI 3.1, and its reference page (docs/adr/0026). */
  '/api/openapi.json': 'gateway',
  '/api/docs': 'gateway',
  '/api/call_pg_func': 'gateway',

  '/api/client_order_excel_import': 'orders',
  '/api/upload_file': 'orders',
  '/api/upload_image': 'orders',
  '/api/files/:name': 'orders',
  '/api/client_order_report_download': 'orders',

  '/api/client_order_invoice_download': 'payments',
  '/api/modul_sbp_create': 'payments',
  '/api/acquiring/callback': 'payments',

  '/api/cdek_order_create': 'carriers',
  '/api/pec_order_get': 'carriers',
  '/api/jde_order_get': 'carriers',
  '/api/ozon_posting_get': 'carriers',
  '/api/cnt_waybill_register': 'carriers',
  '/api/cnt_waybill_get': 'carriers',
  '/api/suggest_address': 'carriers',
  '/api/suggest_company': 'carriers',
  '/api/suggest_bank': 'carriers',
  '/api/carriers/webhook/:vendor': 'carriers',
} as const satisfies Record<string, Owner>);
export type HttpPath = keyof typeof HTTP_OWNERS;

/**
 * Paths the gateway passes on without a session: uploaded files, named by unguessable ids (docs/adr/0003);
 * the acquirer's callback, trusted only by its signature (docs/adr/0012); the carriers' webhooks, trusted
 * only by the vendor's signature or the secret in the subscribed URL (docs/adr/0020).
 */
export const PUBLIC_PATHS: ReadonlySet<string> = new Set([
  '/api/files/:name',
  '/api/acquiring/callback',
  '/api/carriers/webhook/:vendor',
]);

export const ownerOfMethod = (method: string): Owner | undefined =>
  Object.prototype.hasOwnProperty.call(METHOD_OWNERS, method) ? METHOD_OWNERS[method] : undefined;

export const ownerOfPath = (path: string): Owner | undefined =>
  Object.prototype.hasOwnProperty.call(HTTP_OWNERS, path) ? HTTP_OWNERS[path as HttpPath] : undefined;
