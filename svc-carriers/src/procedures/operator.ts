import {
  isAdmin,
  isStaff,
  operator,
  OPERATOR_PUBLIC_COLUMNS,
  type TransportCompanyData,
} from '@caravan/contracts';
import { linkedIds, registerEntity, type ServiceKit } from '@caravan/service-kit';
import { MASKED_TRANSPORT_DATA_SQL, sealGivenTransportData } from '../domain/credentials';
import { assertClientListChange, assertOwnLegalEntities } from '../domain/operators';
import { topicOf } from './reference';

/**
 * Operators: an operator reads and edits their own, but only an admin adds or removes clients of its
 * list, and its legal entities and bank account are the operator's own; a client sees the operators
 * that are not incognito, without client lists and API keys (to choose one for an order); admins
 * create and delete them. Carrier tokens are stored sealed (domain/secretBox) and read as '***'.
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
      // read as stored but with the token masked: a secret never leaves the service (written back, '***' keeps it)
      transport_company_data: MASKED_TRANSPORT_DATA_SQL,
    },
    readScope: (q, identity) => {
      q.whereRaw('false');
      if (identity.roles.includes('operator')) q.orWhereIn('operator.id', identity.operator_ids);
      if (identity.roles.includes('client')) q.orWhere('operator.incognito', false);
    },
    visibleColumns: (identity) =>
      isStaff(identity) ? null : [...OPERATOR_PUBLIC_COLUMNS, 'warehouse_point_id'],
    may: { create: 'admin', delete: 'admin' },
    rules: async ({ trx, identity, prev, given }) => {
      if (given.transport_company_data)
        sealGivenTransportData(
          given.transport_company_data as TransportCompanyData[],
          prev?.transport_company_data as TransportCompanyData[] | undefined,
        );
      if (isAdmin(identity) || !prev) return;
      if ('client_list' in given)
        await assertClientListChange(trx, prev.id as number, prev.client_list, given.client_list);
      await assertOwnLegalEntities(trx, prev.id, prev, given);
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
