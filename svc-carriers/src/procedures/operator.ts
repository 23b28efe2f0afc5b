import {
  isAdmin,
  isStaff,
  MESSAGES,
  operator,
  OPERATOR_PUBLIC_COLUMNS,
  type TransportCompanyData,
} from '@caravan/contracts';
import { BusinessError, linkedIds, registerEntity, type ServiceKit } from '@caravan/service-kit';
import { topicOf } from './reference';

/**
 * Operators: an operator reads and edits their own; a client sees the operators that are not
 * incognito, without client lists and API keys (to choose one for an order); admins create and
 * delete them.
 */
export const registerOperator = (kit: ServiceKit) =>
  registerEntity(kit.registry, {
    contract: operator,
    read: 'any',
    write: 'staff',
    json: ['working_hours', 'transport_company_data', 'client_list'],
    computed: {
      warehouse_point_id: linkedIds(
        'operator',
        'operator_warehouse_point_link',
        'operator_id',
        'warehouse_point_id',
      ),
    },
    readScope: (q, identity) => {
      q.whereRaw('false');
      if (identity.roles.includes('operator')) q.orWhereIn('operator.id', identity.operator_ids);
      if (identity.roles.includes('client')) q.orWhere('operator.incognito', false);
    },
    visibleColumns: (identity) =>
      isStaff(identity) ? null : [...OPERATOR_PUBLIC_COLUMNS, 'warehouse_point_id'],
    rules: ({ identity, prev, deleted }) => {
      if (isAdmin(identity)) return;
      if (!prev || deleted !== undefined) throw new BusinessError(MESSAGES.adminOnly);
    },
    topic: topicOf('operator'),
    // API keys stay in svc-carriers, which talks to the carriers; the rest of the operator replicates
    toEvent: (row) => ({
      ...row,
      transport_company_data: (row.transport_company_data as TransportCompanyData[]).map((d) => ({
        ...d,
        api_data: { client_id: d.api_data.client_id, access_token: d.api_data.access_token ? '***' : '' },
      })),
    }),
  });
