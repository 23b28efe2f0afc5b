import { Button, Card, H5, Tag } from '@blueprintjs/core';
import {
  livePhotos,
  PHOTO_REVIEW_MESSAGES,
  photosAwaitReview,
  type Attachment,
  type PhotoReview,
} from '@caravan/contracts';
import { EditDialog, toast, useCurrentUser, userIsStaff, type Values } from '@caravan/ui-kit';
import { useState } from 'react';
import { usePositionsOfOrder } from '../api';
import { usePhotoReviewMutation } from './api';

export const PHOTOS_UI = {
  title: 'фото со склада',
  accept: 'принять фото',
  more: 'нужны ещё фото',
  moreTitle: 'какие фото нужны',
  moreField: 'какие фото нужны',
  send: 'отправить оператору',
  accepted: 'фото приняты',
  requested: (comment: string) => `запрошены ещё фото: ${comment}`,
  awaiting: 'ждут вашего ответа',
  awaitingStaff: 'ждут ответа клиента',
} as const;

type PositionRow = Values & {
  id: number;
  title: string;
  warehouse_images: Attachment[];
  options: { photo_review?: PhotoReview | null } | null;
};

function ReviewState({ row, staff }: { row: PositionRow; staff: boolean }) {
  const review = row.options?.photo_review ?? null;
  if (photosAwaitReview(row.warehouse_images, review))
    return <Tag intent="warning">{staff ? PHOTOS_UI.awaitingStaff : PHOTOS_UI.awaiting}</Tag>;
  if (review?.answer === 'accepted') return <Tag intent="success">{PHOTOS_UI.accepted}</Tag>;
  return <Tag intent="primary">{PHOTOS_UI.requested(review?.comment ?? '')}</Tag>;
}

/** One position's photos, with the client's answer buttons while they wait for it. */
function PositionPhotos({ row, client }: { row: PositionRow; client: boolean }) {
  const [review, { isLoading }] = usePhotoReviewMutation();
  const [asking, setAsking] = useState(false);
  const waiting = photosAwaitReview(row.warehouse_images, row.options?.photo_review);
  const accept = async () => {
    try {
      void toast(await review({ id: row.id, answer: 'accepted', comment: '' }).unwrap(), 'success');
    } catch (err) {
      void toast((err as { message: string }).message, 'danger');
    }
  };
  return (
    <li className="caravan-photos-position" data-testid={`photos-${row.id}`}>
      <div className="caravan-photos-head">
        <strong>{row.title}</strong> <ReviewState row={row} staff={!client} />
      </div>
      <div className="caravan-timeline-photos">
        {livePhotos(row.warehouse_images).map((src) => (
          <a key={src} href={src} target="_blank" rel="noreferrer">
            <img src={src} alt={row.title} loading="lazy" />
          </a>
        ))}
      </div>
      {client && waiting && (
        <div className="caravan-photos-actions">
          <Button
            icon="tick"
            intent="success"
            loading={isLoading}
            text={PHOTOS_UI.accept}
            onClick={() => void accept()}
          />
          <Button icon="camera" text={PHOTOS_UI.more} onClick={() => setAsking(true)} />
        </div>
      )}
      <EditDialog
        isOpen={asking}
        title={PHOTOS_UI.moreTitle}
        fields={[{ name: 'comment', label: PHOTOS_UI.moreField, kind: 'textarea', required: true }]}
        submitText={PHOTOS_UI.send}
        successMessage={PHOTO_REVIEW_MESSAGES.moreRequested}
        onClose={() => setAsking(false)}
        onSubmit={(values) =>
          review({ id: row.id, answer: 'more', comment: String(values.comment ?? '') }).unwrap()
        }
      />
    </li>
  );
}

/**
 * The warehouse's photos of the order's positions as a gallery on the card (issue 19, quality control):
 * the client accepts them or asks for more (a task for the operator); staff see what the client answered.
 */
export function WarehousePhotos({ orderId }: { orderId: number }) {
  const user = useCurrentUser();
  const client = !userIsStaff(user);
  const { data } = usePositionsOfOrder(orderId);
  const rows = ((data?.items ?? []) as unknown as PositionRow[]).filter(
    (r) => livePhotos(r.warehouse_images).length,
  );
  if (!rows.length) return null;
  return (
    <Card className="caravan-order-section caravan-photos" data-testid="warehouse-photos">
      <H5>{PHOTOS_UI.title}</H5>
      <ul className="caravan-photos-list">
        {rows.map((row) => (
          <PositionPhotos key={row.id} row={row} client={client} />
        ))}
      </ul>
    </Card>
  );
}
