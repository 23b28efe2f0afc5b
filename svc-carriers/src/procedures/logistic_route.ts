import {
  CalculateParams,
  logisticRoute,
  logisticRouteProductTypeLink,
  logisticRouteWarehousePointLink,
  type Identity,
} from '@caravan/contracts';
import { linkedIds, registerEntity, titleOf, type ServiceKit } from '@caravan/service-kit';
import type { Knex } from 'knex';
import { calculate, checkRoute, checkRouteLinkRemoval } from '../domain/routes';
import { topicOf } from './reference';

/** Links of a route are the route operator's: `logistic_route_id` must point at one of their routes. */
const ofOwnRoutes = (q: Knex.QueryBuilder, identity: Identity) =>
  identity.roles.includes('operator')
    ? q.whereIn('logistic_route_id', (sub) =>
        sub.select('id').from('logistic_route').whereIn('operator_id', identity.operator_ids),
      )
    : q.whereRaw('false');

/**
 * Tariffs: an operator manages their own; a client sees the active ones; admins everything. Their
 * product types and warehouses are link entities, read by all and written by the route's operator.
 */
/** Routes a non-admin sees: an operator their operators' routes, a client the active ones. */
function readableRoutes(q: Knex.QueryBuilder, identity: Identity) {
  q.where((b) => {
    b.whereRaw('false');
    if (identity.roles.includes('operator')) b.orWhereIn('logistic_route.operator_id', identity.operator_ids);
    if (identity.roles.includes('client')) b.orWhere('logistic_route.state', 'active');
  });
  return q;
}

export function registerLogisticRoute(kit: ServiceKit) {
  registerEntity(kit.registry, {
    contract: logisticRoute,
    read: 'any',
    write: 'staff',
    json: ['density_table'],
    computed: {
      from_city_title: titleOf('logistic_route', 'from_city_id', 'city'),
      operator_title: titleOf('logistic_route', 'operator_id', 'operator'),
      logistic_product_type_id: linkedIds(
        'logistic_route',
        'logistic_route_logistic_product_type_link',
        'logistic_route_id',
        'logistic_product_type_id',
      ),
      warehouse_point_id: linkedIds(
        'logistic_route',
        'logistic_route_warehouse_point_link',
        'logistic_route_id',
        'warehouse_point_id',
      ),
    },
    readScope: readableRoutes,
    rules: ({ trx, prev, next }) => checkRoute(trx, prev as never, next as never),
    topic: topicOf('logistic_route'),
  });

  for (const [contract, target, what] of [
    [logisticRouteProductTypeLink, 'logistic_product_type', 'тип товара'],
    [logisticRouteWarehousePointLink, 'warehouse_point', 'склад'],
  ] as const) {
    const table = contract.name;
    registerEntity(kit.registry, {
      contract,
      read: 'any',
      write: 'staff',
      // a link shows what its route is (its title): only links of routes the reader may see
      readScope: (q, identity) =>
        q.whereIn(`${table}.logistic_route_id`, (routes: Knex.QueryBuilder) =>
          readableRoutes(routes.select('logistic_route.id').from('logistic_route'), identity),
        ),
      writeScope: ofOwnRoutes,
      computed: {
        logistic_route_title: titleOf(table, 'logistic_route_id', 'logistic_route'),
        [`${target}_title`]: titleOf(table, `${target}_id`, target),
      },
      rules: async ({ trx, prev, deleted }) => {
        if (prev && deleted) await checkRouteLinkRemoval(trx, table, prev.logistic_route_id as number, what);
      },
      topic: topicOf(table),
    });
  }

  kit.registry.register({
    name: 'logistic_route_calculate',
    params: CalculateParams,
    access: 'any',
    handler: (ctx, p) => calculate(ctx.db, p),
  });
}
