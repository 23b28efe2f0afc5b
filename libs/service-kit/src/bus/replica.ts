import { EntityChanged, EVENT_TYPES } from '@caravan/contracts';
import type { Db } from '../db';
import type { EventHandler } from './inbox';

/**
 * The generic replica consumer: keeps the latest row of each replicated entity in the `replica`
 * table. An older event arriving after a newer one (redelivery, a relay taking over a key) is ignored:
 * events carry the producer's per-key `seq`; events from before `seq` existed compare `occurred_at`.
 */
export const replicaHandler: EventHandler = async (trx, event) => {
  if (event.type !== EVENT_TYPES.entityChanged) return;
  const change = EntityChanged.parse(event.data);
  await trx.raw(
    `insert into replica (entity, id, data, deleted, occurred_at, event_id, seq)
     values (?, ?, ?::jsonb, ?, ?, ?, ?)
     on conflict (entity, id) do update
       set data = excluded.data, deleted = excluded.deleted, occurred_at = excluded.occurred_at,
           event_id = excluded.event_id, seq = excluded.seq
       where case when replica.seq is not null and excluded.seq is not null then replica.seq < excluded.seq
                  else replica.occurred_at <= excluded.occurred_at end`,
    [
      change.entity,
      change.id,
      JSON.stringify(change.row),
      Boolean(change.row.deleted),
      event.occurred_at,
      event.id,
      event.seq ?? null,
    ],
  );
};

export type ReplicaRow<T> = T & { id: number; deleted: boolean };

/** Reads replicated rows of one entity. */
export async function readReplica<T>(db: Db, entity: string, ids?: number[]): Promise<ReplicaRow<T>[]> {
  const q = db('replica').select('data').where({ entity }).orderBy('id');
  if (ids) q.whereIn('id', ids);
  const rows: { data: ReplicaRow<T> }[] = await q;
  return rows.map((r) => r.data);
}
