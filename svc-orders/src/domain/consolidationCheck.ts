import { formatDate, NOTIFICATION_TEXTS } from '@caravan/contracts';
import type { Db } from '@caravan/service-kit';
import { orderName } from './notices';
import { notify, type NotifyContext } from './notifications';

/** Positions looked at per transaction: a long backlog is told in short steps. */
const BATCH = 200;

type Missing = {
  id: number;
  title: string;
  expected: string;
  order_id: number;
  order_title: string;
  client_id: number;
  operator_id: number | null;
};

/**
 * The scheduled check (spec §3 category consolidation_receive_missing): a position sent to the
 * consolidation warehouse and expected there before `today` but not received yet. The order's client
 * and operator users and the admins hear of it once per position and expected date (a new date set by
 * staff is a new promise, told again if missed). Returns how many positions were told of.
 */
export async function checkMissingAtConsolidation(
  db: Db,
  ctx: NotifyContext,
  today: string,
): Promise<number> {
  let told = 0;
  let afterId = 0;
  for (;;) {
    const { rows } = (await db.raw(
      `select p.id, p.title, to_char(p.to_consolidation_warehouse_delivery_date, 'YYYY-MM-DD') as expected,
              o.id as order_id, o.title as order_title, o.client_id, o.operator_id
         from client_order_position p join client_order o on o.id = p.client_order_id
        where p.stage = 'warehouse_waiting' and not p.deleted
          and p.to_consolidation_warehouse_delivery_date < ?::date and p.id > ?
          and not exists (select 1 from notification n
                           where n.source_key = 'consolidation_missing:' || p.id || ':'
                                 || to_char(p.to_consolidation_warehouse_delivery_date, 'YYYY-MM-DD'))
        order by p.id limit ?`,
      [today, afterId, BATCH],
    )) as { rows: Missing[] };
    if (!rows.length) return told;
    await db.transaction(async (trx) => {
      for (const p of rows) {
        const title = orderName({ id: p.order_id, title: p.order_title });
        const made = await notify(
          trx,
          ctx,
          { clientId: p.client_id, operatorId: p.operator_id, admins: true },
          {
            sourceKey: `consolidation_missing:${p.id}:${p.expected}`,
            ...NOTIFICATION_TEXTS.consolidationMissing(title, p.title, p.expected),
            type: 'warning',
            category: 'consolidation_receive_missing',
            table_name: 'client_order',
            item_id: Number(p.order_id),
            options: {
              client_order_title: title,
              modification_type: 'to_consolidation_warehouse_delivery_date',
              new_value: formatDate(p.expected),
            },
          },
        );
        if (made) told++;
      }
    });
    afterId = Number(rows[rows.length - 1]!.id);
  }
}
