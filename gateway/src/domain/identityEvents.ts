import { EntityChanged, EVENT_TYPES, IDENTITY_TOPIC } from '@caravan/contracts';
import type { Db, NewEvent, Outbox } from '@caravan/service-kit';
import { userEventRow } from '../procedures/user';

type Row = Record<string, unknown> & { id: number; deleted: boolean };

const changed = (entity: string, row: Row): NewEvent => ({
  topic: IDENTITY_TOPIC,
  key: row.id,
  type: EVENT_TYPES.entityChanged,
  actor: null,
  data: EntityChanged.parse({
    entity,
    id: row.id,
    op: 'created',
    row: JSON.parse(JSON.stringify(entity === 'user' ? userEventRow(row) : row)),
  }),
});

/**
 * Publishes users and links written before services kept an identity replica (the seed publishes its
 * own since) as created, so every consumer of gateway.identity.v1 knows them: svc-orders
 * picks the recipients of notifications from them (docs/adr/0021).
 */
export async function publishIdentityRows(
  trx: Db,
  outbox: Pick<Outbox, 'writeMany'>,
  rows: { users?: Row[]; clientLinks?: Row[]; operatorLinks?: Row[] },
) {
  await outbox.writeMany(trx, [
    ...(rows.users ?? []).map((r) => changed('user', r)),
    ...(rows.clientLinks ?? []).map((r) => changed('client_user_link', r)),
    ...(rows.operatorLinks ?? []).map((r) => changed('operator_user_link', r)),
  ]);
}
