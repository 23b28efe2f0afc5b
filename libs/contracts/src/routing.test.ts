import {
  ENTITY_OWNERS,
  GENERIC_SUFFIXES,
  HTTP_OWNERS,
  METHOD_OWNERS,
  ownerOfMethod,
  ownerOfPath,
} from './routing';

/** Every procedure the spec calls (orders-payments-calls §7) must have exactly one owner. */
const SPEC_METHODS = [
  'client_order_get_by_id',
  'client_order_update',
  'client_order_list',
  'client_order_buyout_waiting',
  'client_order_created',
  'client_order_consolidate',
  'client_order_split',
  'client_order_tg_send',
  'client_order_payment_receive',
  'client_order_position_list',
  'client_order_position_get_by_id',
  'client_order_position_update',
  'client_order_position_action',
  'exchange_rate_get_by_id',
  'exchange_rate_list',
  'operator_get_by_id',
  'operator_update',
  'client_get_by_id',
  'legal_entity_list',
  'logistic_route_get_by_id',
  'logistic_product_type_list',
  'extra_service_list',
  'wallet_list',
  'wallet_get_by_id',
  'wallet_update',
  'wallet_transfer',
  'provider_update',
  'warehouse_point_update',
  'operator_list',
  'warehouse_point_list',
  'logistic_route_list',
  'currency_list',
  'user_list',
  'provider_list',
  'city_list',
  'client_list',
  'task_update',
  'task_action_to_finished',
];

const SPEC_HTTP_PATHS = [
  '/api/client_order_excel_import',
  '/api/client_order_invoice_download',
  '/api/modul_sbp_create',
  '/api/pec_order_get',
  '/api/jde_order_get',
  '/api/cdek_order_create',
  '/api/ozon_posting_get',
  '/api/cnt_waybill_register',
  '/api/cnt_waybill_get',
  '/api/sse',
  '/api/upload_file',
  '/api/upload_image',
];

describe('routing table', () => {
  it.each(SPEC_METHODS)('routes %s to an owner', (method) => {
    expect(ownerOfMethod(method)).toBeDefined();
  });

  it.each(SPEC_HTTP_PATHS)('routes %s to an owner', (path) => {
    expect(ownerOfPath(path)).toBeDefined();
  });

  it('gives every entity the four generic methods, owned by the entity owner', () => {
    for (const [entity, owner] of Object.entries(ENTITY_OWNERS))
      for (const suffix of GENERIC_SUFFIXES) expect(METHOD_OWNERS[`${entity}${suffix}`]).toBe(owner);
  });

  it('sends money to payments, reference data to carriers, orders to orders', () => {
    expect(ownerOfMethod('wallet_transfer')).toBe('payments');
    expect(ownerOfMethod('country_update')).toBe('carriers');
    expect(ownerOfMethod('client_order_split')).toBe('orders');
    expect(ownerOfPath('/api/modul_sbp_create')).toBe('payments');
    expect(HTTP_OWNERS['/api/cdek_order_create']).toBe('carriers');
  });

  it('knows no owner for an unknown method, including inherited object keys', () => {
    expect(ownerOfMethod('drop_everything')).toBeUndefined();
    expect(ownerOfMethod('constructor')).toBeUndefined();
    expect(ownerOfPath('/api/__proto__')).toBeUndefined();
  });
});
