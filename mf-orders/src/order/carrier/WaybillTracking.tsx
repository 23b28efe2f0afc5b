import { Button, Classes, Dialog, DialogBody, HTMLTable, Spinner, Tag } from '@blueprintjs/core';
import { waybillNeedsRegistration } from '@caravan/contracts';
import { useCurrentUser, userIsAdmin, type Values } from '@caravan/ui-kit';
import { useEffect, useRef, useState } from 'react';
import { useCntWaybillGetQuery, useCntWaybillRegisterMutation } from '../../api/carriers';
import { formatMoment } from './format';

export const WAYBILL_TEXTS = {
  button: 'отслеживание',
  title: (waybill: string) => `отслеживание ${waybill}`,
  arrived: 'прибыл в город склада',
  noEvents: 'событий пока нет',
} as const;

const trackedNumber = (position: Values) =>
  (position.options as { cnt_data?: { number?: string } } | null)?.cnt_data?.number ?? null;

/**
 * Spec §4: a saved waybill longer than 10 characters is registered with the tracker unless it is the one
 * already tracked. The generic item page saves the position; this registers right after the save changed
 * the waybill. A failure is only logged (spec §8): the position is saved either way.
 */
export function useWaybillRegistration(position: Values) {
  const [register] = useCntWaybillRegisterMutation();
  const seen = useRef(position.waybill);
  const waybill = position.waybill as string | null | undefined;
  useEffect(() => {
    if (seen.current === waybill) return;
    seen.current = waybill;
    if (!waybillNeedsRegistration(waybill, trackedNumber(position))) return;
    register({
      warehouse_alias: '',
      number: '',
      waybill: waybill!.trim(),
      ...(position.client_order_id ? { order_id: position.client_order_id as number } : {}),
    })
      .unwrap()
      .catch((err: { message: string }) => console.warn('cnt_waybill_register:', err.message));
  }, [waybill, position, register]);
}

function TrackingDialog({ waybill, onClose }: { waybill: string; onClose(): void }) {
  const { data, error, isLoading } = useCntWaybillGetQuery(waybill);
  const events = [...(data?.events ?? [])].sort((a, b) => b.at.localeCompare(a.at));
  return (
    <Dialog isOpen title={WAYBILL_TEXTS.title(waybill)} onClose={onClose}>
      <DialogBody>
        {isLoading && <Spinner size={20} />}
        {error && <p className={Classes.INTENT_DANGER}>{(error as { message: string }).message}</p>}
        {data && (
          <>
            <p>
              <Tag minimal intent={data.arrived ? 'success' : 'primary'}>
                {data.label}
              </Tag>
            </p>
            {events.length === 0 ? (
              <p>{WAYBILL_TEXTS.noEvents}</p>
            ) : (
              <HTMLTable compact data-testid="waybill-events">
                <tbody>
                  {events.map((e, i) => (
                    <tr key={`${e.at}-${i}`}>
                      <td>{formatMoment(e.at)}</td>
                      <td>{e.text}</td>
                      <td>{e.city ?? ''}</td>
                    </tr>
                  ))}
                </tbody>
              </HTMLTable>
            )}
          </>
        )}
      </DialogBody>
    </Dialog>
  );
}

/**
 * The position's waybill tracking (product-core §2, spec §6 admin only): registers a changed waybill,
 * shows 'прибыл в город склада' once the parcel reached the warehouse's city, and the events dialog.
 */
export function WaybillTracking({ values }: { values: Values }) {
  const admin = userIsAdmin(useCurrentUser());
  const [open, setOpen] = useState(false);
  useWaybillRegistration(values);
  const waybill = String(values.waybill ?? '').trim();
  const arrived = Boolean((values.warehouse_cnt_data as { arrived?: boolean } | null)?.arrived);
  const trackable = waybill !== '' && waybill.toLowerCase() !== 'none';
  return (
    <>
      {arrived && (
        <Tag large minimal intent="success" data-testid="waybill-arrived">
          {WAYBILL_TEXTS.arrived}
        </Tag>
      )}
      {admin && trackable && (
        <Button
          icon="path-search"
          text={WAYBILL_TEXTS.button}
          data-testid="waybill-tracking"
          onClick={() => setOpen(true)}
        />
      )}
      {open && <TrackingDialog waybill={waybill} onClose={() => setOpen(false)} />}
    </>
  );
}
