import {
  hasRole,
  isAdmin,
  livePhotos,
  MESSAGES,
  photosAwaitReview,
  PHOTO_REVIEW_MESSAGES,
  PHOTO_REVIEW_PARAM_LABELS,
  PositionPhotoReviewParams,
  type Attachment,
  type Identity,
  type PhotoReview,
} from '@caravan/contracts';
import { BusinessError, type EntityStore, type Outbox, type ServiceKit } from '@caravan/service-kit';

/** What follows a request for more photos: a task for the order's operator (domain/morePhotos.ts). */
export type MorePhotosRequested = (
  trx: Parameters<EntityStore['changeMany']>[0],
  ctx: { identity: Identity; outbox: Outbox },
  request: { position_id: number; position_title: string; client_order_id: number; comment: string },
) => Promise<void>;

/**
 * client_order_position_photo_review (issue 19, quality control): the order's client accepts the warehouse
 * photos of a position or asks for more. Stored in the position's options with the photos answered (the
 * history and the card's live update follow the usual write); 'more' goes to the operator.
 */
export function registerPhotoReview(
  kit: ServiceKit,
  positions: () => EntityStore,
  onMore?: MorePhotosRequested,
) {
  kit.registry.register({
    name: 'client_order_position_photo_review',
    params: PositionPhotoReviewParams,
    labels: PHOTO_REVIEW_PARAM_LABELS,
    access: 'any',
    handler: (ctx, p) =>
      ctx.db.transaction(async (trx) => {
        const { identity } = ctx;
        const seen = await positions().get(trx, identity, p.id);
        if (
          !isAdmin(identity) &&
          !(hasRole(identity, 'client') && identity.client_ids.includes(Number(seen.client_id)))
        )
          throw new BusinessError(PHOTO_REVIEW_MESSAGES.clientOnly);
        await trx('client_order').where({ id: seen.client_order_id }).forUpdate().first('id');
        const row = await trx('client_order_position').where({ id: p.id }).forUpdate().first();
        if (!row || row.deleted) throw new BusinessError(MESSAGES.notFound);
        const files = livePhotos(row.warehouse_images as Attachment[]);
        if (!files.length) throw new BusinessError(PHOTO_REVIEW_MESSAGES.noPhotos);
        // as the card offers the buttons: once per set of photos (a repeated 'more' would task the operator again)
        const answered = (row.options as { photo_review?: PhotoReview } | null)?.photo_review;
        if (!photosAwaitReview(row.warehouse_images as Attachment[], answered))
          throw new BusinessError(PHOTO_REVIEW_MESSAGES.alreadyAnswered);
        const review: PhotoReview = {
          answer: p.answer,
          comment: p.comment,
          files,
          at: new Date().toISOString(),
          user_id: identity.user_id,
        };
        await positions().changeMany(trx, identity, ctx.outbox, [row], (r) => ({
          options: { ...(r.options as Record<string, unknown> | null), photo_review: review },
        }));
        if (p.answer === 'more')
          await onMore?.(trx, ctx, {
            position_id: p.id,
            position_title: String(row.title),
            client_order_id: Number(row.client_order_id),
            comment: p.comment,
          });
        return p.answer === 'accepted' ? PHOTO_REVIEW_MESSAGES.accepted : PHOTO_REVIEW_MESSAGES.moreRequested;
      }),
  });
}
