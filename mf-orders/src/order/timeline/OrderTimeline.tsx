import { Button, Card, H5, Icon, NonIdealState, Spinner, type IconName } from '@blueprintjs/core';
import type { TimelineEntry, TimelineKind } from '@caravan/contracts';
import { useServerEvents } from '@caravan/ui-kit';
import { useEffect, useRef, useState } from 'react';
import { formatMoment } from '../carrier/format';
import { useOrderTimelineQuery } from './api';

export const TIMELINE_UI = {
  title: 'ход заказа',
  empty: 'пока ничего не произошло',
  more: 'показать ещё',
  failed: 'не удалось загрузить ход заказа',
} as const;
/** Lines shown at first; the rest one press away. */
export const TIMELINE_FIRST = 15;

const KIND_ICONS: Record<TimelineKind, IconName> = {
  stage: 'flow-linear',
  payment: 'bank-account',
  carrier: 'truck',
  tracking: 'globe',
  warehouse: 'box',
  photos: 'camera',
  message: 'chat',
};

function Line({ entry }: { entry: TimelineEntry }) {
  return (
    <li className="caravan-timeline-line" data-kind={entry.kind}>
      <Icon icon={KIND_ICONS[entry.kind]} className="caravan-timeline-icon" />
      <div>
        <div className="caravan-timeline-text">{entry.text}</div>
        <div className="bp6-text-muted bp6-text-small">
          {formatMoment(entry.at)} · {entry.who}
        </div>
        {entry.files && entry.files.length > 0 && (
          <div className="caravan-timeline-files">
            {entry.files.map((f) => (
              <a key={f.file} href={f.file} target="_blank" rel="noreferrer">
                <Icon icon="paperclip" size={12} />
                {f.name}
              </a>
            ))}
          </div>
        )}
        {entry.images.length > 0 && (
          <div className="caravan-timeline-photos">
            {entry.images.map((src) => (
              <a key={src} href={src} target="_blank" rel="noreferrer">
                <img src={src} alt={entry.text} loading="lazy" />
              </a>
            ))}
          </div>
        )}
      </div>
    </li>
  );
}

/**
 * The order's story for its client and staff (issue 19; docs/adr/0025-order-timeline.md): stages, payments,
 * the carrier's and the Chinese courier's tracking, the warehouse's receipts and photos, the chat's
 * messages — newest first, live with the card. The staff's raw history dialog stays as it is.
 */
export function OrderTimeline({ id }: { id: number }) {
  const { data, isLoading, isError, isFetching, refetch } = useOrderTimelineQuery(id);
  // the card's changes refresh it through their tags; a message of the order's chat does here. A refetch asked
  // while one is in flight is dropped by RTK Query (that one may have read before the message): ask again after it.
  const fetching = useRef(isFetching);
  fetching.current = isFetching;
  const missed = useRef(false);
  useServerEvents('client_order_item', id, (e) => {
    if ((e as { entity?: string }).entity !== 'chat_message') return;
    if (fetching.current) missed.current = true;
    else void refetch();
  });
  useEffect(() => {
    if (isFetching || !missed.current) return;
    missed.current = false;
    void refetch();
  }, [isFetching, refetch]);
  const [all, setAll] = useState(false);
  const shown = all ? data : data?.slice(0, TIMELINE_FIRST);
  return (
    <Card className="caravan-order-section caravan-timeline" data-testid="order-timeline">
      <H5>{TIMELINE_UI.title}</H5>
      {isLoading && <Spinner size={20} />}
      {isError && <NonIdealState icon="error" description={TIMELINE_UI.failed} />}
      {data && !data.length && <p className="bp6-text-muted">{TIMELINE_UI.empty}</p>}
      {shown && shown.length > 0 && (
        <ol className="caravan-timeline-list">
          {shown.map((entry, i) => (
            <Line key={`${entry.at}-${entry.kind}-${i}`} entry={entry} />
          ))}
        </ol>
      )}
      {!all && data && data.length > TIMELINE_FIRST && (
        <Button variant="minimal" text={TIMELINE_UI.more} onClick={() => setAll(true)} />
      )}
    </Card>
  );
}
