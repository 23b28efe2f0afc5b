import type { Values } from '@caravan/ui-kit';
import { CarrierStatus } from './CarrierStatus';
import { CarrierSync } from './CarrierSync';
import { CdekWaybillDraft } from './CdekWaybillDraft';

/** The carrier's part of the order header (issue 18): status and history, the waybill draft, the sync buttons. */
export function CarrierCard({ id, values }: { id: number; values: Values }) {
  return (
    <div className="caravan-order-carrier" data-testid="order-carrier">
      <CarrierStatus id={id} values={values} />
      <CdekWaybillDraft id={id} values={values} />
      <CarrierSync id={id} values={values} />
    </div>
  );
}
