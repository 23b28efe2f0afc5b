import { PHOTO_REVIEW_MESSAGES, TASK_TYPES } from '@caravan/contracts';
import type { EntityStore } from '@caravan/service-kit';
import type { MorePhotosRequested } from '../procedures/photoReview';
import { staffOfOperator } from './people';

const MORE_PHOTOS_TYPE = TASK_TYPES.find((t) => t.title === 'дополнительные фото')!.id;
/** How long the operator has for new photos. */
const MORE_PHOTOS_HOURS = 24;

/**
 * A client's 'нужны ещё фото' becomes a task of type 'дополнительные фото' on the order, for one of its
 * operator's staff (an operator before an admin), due in a day, with the client's words; the client is its
 * author. Written in the answer's transaction.
 */
export const morePhotosTask =
  (tasks: () => EntityStore): MorePhotosRequested =>
  async (trx, { identity, outbox }, request) => {
    const order = await trx('client_order')
      .where({ id: request.client_order_id })
      .first('client_id', 'operator_id');
    const staff = await staffOfOperator(trx, order.operator_id);
    const executor = staff.find((s) => s.roles.includes('operator')) ?? staff[0];
    if (!executor) return; // nobody reaches the order yet: the answer stays on the position, seen on the card
    await tasks().insertMany(trx, identity, outbox, [
      {
        task_type_id: MORE_PHOTOS_TYPE,
        table_name: 'client_order',
        table_id: request.client_order_id,
        client_id: order.client_id,
        operator_id: order.operator_id,
        executor_id: executor.id,
        author_id: identity.user_id,
        deadline: new Date(Date.now() + MORE_PHOTOS_HOURS * 3600_000).toISOString(),
        content: PHOTO_REVIEW_MESSAGES.morePhotosTask(request.position_title, request.comment),
      },
    ]);
  };
