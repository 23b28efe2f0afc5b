import {
  INVOICE_MESSAGES,
  invoiceOrderIds,
  isAdmin,
  MESSAGES,
  type Identity,
  type InvoiceDownloadParams,
} from '@caravan/contracts';
import { assertAccess, BusinessError, readReplica, type Db } from '@caravan/service-kit';
import {
  moscowToday,
  type BankAccountRow,
  type InvoiceOrder,
  type InvoicePosition,
  type InvoiceSources,
  type LegalEntityRow,
} from './model';

type Owner = { legal_entity_id?: number[] | null };
type OperatorReplica = Owner & { bank_account_id?: number | null; nds_rate?: string | null };

const ENTITY_COLUMNS = [
  'id',
  'title',
  'title_full',
  'inn',
  'kpp',
  'address',
  'director_name',
  'accountant_name',
];
const ACCOUNT_COLUMNS = [
  'id',
  'account_number',
  'bank_account_number',
  'bank_bik',
  'bank_title_full',
  'bank_title_short',
];

/** Does this identity reach the order? (ARCHITECTURE §5: admin all, a client its clients', an operator its operators') */
const reaches = (identity: Identity, order: InvoiceOrder) =>
  isAdmin(identity) ||
  (identity.roles.includes('client') && identity.client_ids.includes(order.client_id)) ||
  (identity.roles.includes('operator') && identity.operator_ids.includes(order.operator_id));

/** The live legal entities an operator or a client names (their legal_entity_id list), in id order. */
async function liveEntities(db: Db, owner: Owner | undefined): Promise<LegalEntityRow[]> {
  const ids = owner?.legal_entity_id ?? [];
  if (!ids.length) return [];
  return db('legal_entity').whereIn('id', ids).where({ deleted: false }).orderBy('id').select(ENTITY_COLUMNS);
}

/** One of `rows`: the chosen one (which must be among them), else the only one. */
function pickOne<T extends { id: number }>(
  rows: T[],
  chosen: number | null | undefined,
  messages: { foreign: string; many: string },
): T {
  if (chosen) {
    const row = rows.find((r) => r.id === chosen);
    if (!row) throw new BusinessError(messages.foreign);
    return row;
  }
  if (rows.length > 1) throw new BusinessError(messages.many);
  return rows[0]!;
}

/**
 * What an invoice of the orders needs, read from svc-payments' replicas (orders, positions, the
 * operator, the client) and its own legal entities and bank accounts. Refuses, with the message the
 * user reads:
 *  - orders that do not exist, are deleted or are out of the caller's reach: 'запись не найдена', the
 *    same for each (nobody learns whether another's order exists);
 *  - orders of several clients or operators; an operator_id that is not the orders';
 *  - then spec §8 in its order: no operator entity, no client entity, several operator entities,
 *    several client entities, no bank account of the operator entity, several, no director's name.
 *    An entity counts when the owner's legal_entity_id names it and it is not deleted (§5: the client
 *    entity must exist). own_legal_entity_id / counterparty_id / bank_account_id choose among several
 *    (a choice outside the owner's is refused); without bank_account_id the operator's own
 *    bank_account_id chooses when it is one of the entity's accounts.
 */
export async function gatherInvoice(
  db: Db,
  identity: Identity,
  params: InvoiceDownloadParams,
  now = new Date(),
): Promise<InvoiceSources> {
  assertAccess(identity, 'any');
  const ids = invoiceOrderIds(params);
  if (!ids.length) throw new BusinessError(INVOICE_MESSAGES.orderRequired);
  const orders = (await readReplica<InvoiceOrder>(db, 'client_order', ids)).filter((o) => !o.deleted);
  if (orders.length !== ids.length || !orders.every((o) => reaches(identity, o)))
    throw new BusinessError(MESSAGES.notFound);
  const clientId = orders[0]!.client_id;
  const operatorId = orders[0]!.operator_id;
  if (orders.some((o) => o.client_id !== clientId)) throw new BusinessError(INVOICE_MESSAGES.mixedClients);
  if (orders.some((o) => o.operator_id !== operatorId))
    throw new BusinessError(INVOICE_MESSAGES.mixedOperators);
  if (params.operator_id && params.operator_id !== operatorId)
    throw new BusinessError(INVOICE_MESSAGES.otherOperator);

  const [operator] = (await readReplica<OperatorReplica>(db, 'operator', [operatorId])).filter(
    (o) => !o.deleted,
  );
  const [client] = (await readReplica<Owner>(db, 'client', [clientId])).filter((c) => !c.deleted);
  const [sellers, buyers] = await Promise.all([liveEntities(db, operator), liveEntities(db, client)]);

  if (!sellers.length) throw new BusinessError(INVOICE_MESSAGES.operatorEntityMissing);
  if (!buyers.length) throw new BusinessError(INVOICE_MESSAGES.clientEntityMissing);
  const seller = pickOne(sellers, params.own_legal_entity_id, {
    foreign: INVOICE_MESSAGES.foreignOperatorEntity,
    many: INVOICE_MESSAGES.operatorEntityMany,
  });
  const buyer = pickOne(buyers, params.counterparty_id, {
    foreign: INVOICE_MESSAGES.foreignClientEntity,
    many: INVOICE_MESSAGES.clientEntityMany,
  });

  const accounts: BankAccountRow[] = await db('bank_account')
    .where({ legal_entity_id: seller.id, deleted: false })
    .orderBy('id')
    .select(ACCOUNT_COLUMNS);
  if (!accounts.length) throw new BusinessError(INVOICE_MESSAGES.bankAccountMissing);
  const operatorsAccount = accounts.find((a) => a.id === operator?.bank_account_id)?.id;
  const bank = pickOne(accounts, params.bank_account_id ?? operatorsAccount, {
    foreign: INVOICE_MESSAGES.foreignBankAccount,
    many: INVOICE_MESSAGES.bankAccountMany,
  });
  if (!seller.director_name.trim()) throw new BusinessError(INVOICE_MESSAGES.directorMissing);

  const positions: { data: InvoicePosition }[] = await db('replica')
    .select('data')
    .where({ entity: 'client_order_position', deleted: false })
    .whereRaw(`(data->>'client_order_id')::bigint = any(?::bigint[])`, [ids]);
  return {
    orders,
    positions: positions.map((p) => p.data),
    operatorNdsRate: operator?.nds_rate ?? null,
    seller,
    buyer,
    bank,
    date: moscowToday(now),
  };
}
