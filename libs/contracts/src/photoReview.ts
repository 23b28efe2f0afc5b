import { z } from 'zod';
import type { Attachment } from './entities/common';
import { specMessage } from './validation';

/**
 * The client's answer to the warehouse's photos of a position (issue 19, quality control; docs/adr/
 * 0025-order-timeline.md): accepted, or more photos wanted (a task for the operator). Kept in the
 * position's options with the photos it answered, so new photos ask for a new answer.
 */
export const PHOTO_REVIEW_ANSWERS = ['accepted', 'more'] as const;
export type PhotoReviewAnswer = (typeof PHOTO_REVIEW_ANSWERS)[number];

export const PHOTO_REVIEW_MESSAGES = {
  noPhotos: 'у позиции нет фото со склада',
  moreNeedsComment: specMessage('напишите, какие фото нужны'),
  clientOnly: 'принять фото или попросить ещё может клиент этого заказа',
  accepted: 'фото приняты',
  moreRequested: 'просьба о новых фото передана оператору',
  morePhotosTask: (title: string, comment: string) => `клиент просит ещё фото позиции «${title}»: ${comment}`,
  byItsButtons: 'ответ на фото со склада даётся кнопками «принять фото» и «нужны ещё фото»',
  alreadyAnswered: 'на эти фото уже дан ответ; ответить можно будет на новые фото со склада',
} as const;

export const PhotoReview = z.strictObject({
  answer: z.enum(PHOTO_REVIEW_ANSWERS),
  comment: z.string().max(500).default(''),
  /** The photos answered (their file links). */
  files: z.array(z.string().max(2000)).max(100).default([]),
  at: z.string().max(40),
  user_id: z.number().int().nullable().default(null),
});
export type PhotoReview = z.infer<typeof PhotoReview>;

export const PositionPhotoReviewParams = z
  .strictObject({
    id: z.number().int().positive(),
    answer: z.enum(PHOTO_REVIEW_ANSWERS),
    comment: z.string().trim().max(500).default(''),
  })
  .refine((p) => p.answer !== 'more' || p.comment.length > 0, {
    message: PHOTO_REVIEW_MESSAGES.moreNeedsComment,
    path: ['comment'],
  });
export type PositionPhotoReviewParams = z.infer<typeof PositionPhotoReviewParams>;
export const PHOTO_REVIEW_PARAM_LABELS = {
  labels: { id: 'позиция', answer: 'ответ', comment: 'какие фото нужны' },
} as const;

/** The warehouse photos a client sees (not deleted), as links. */
export const livePhotos = (images: readonly Attachment[] | null | undefined): string[] =>
  (images ?? []).filter((a) => !a.deleted).map((a) => a.file);

/** Do these photos wait for the client's answer (none given, or given to other photos)? */
export function photosAwaitReview(
  images: readonly Attachment[] | null | undefined,
  review: PhotoReview | null | undefined,
): boolean {
  const live = livePhotos(images);
  if (!live.length) return false;
  if (!review) return true;
  const answered = new Set(review.files);
  return live.some((f) => !answered.has(f));
}
