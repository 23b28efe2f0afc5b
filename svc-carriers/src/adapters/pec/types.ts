/**
 * PEC's "kabinet" API as it answers (vendor-apis §3; https://kabinet.pecom.ru/api/v1, models of
 * glook/pecom-php-sdk): only the fields we read or the sandbox writes. Dates carry no zone: Moscow time.
 */

/** POST /cargos/status/ */
export interface PecStatusRequest {
  /** At most 15 (PEC_CODES_PER_CALL). */
  cargoCodes: string[];
}

export interface PecCargo {
  code: string;
  cargoBarCode?: string | null;
  orderNumber?: string | null;
  description?: string | null;
  amount?: number | null;
  /** kg */
  weight?: number | null;
  /** m³ */
  volume?: number | null;
}

/** Zone-less dates: '2026-11-24T17:40:05' (date-times) or '2026-11-28' (deliveryPlanDate may be a day). */
export interface PecCargoInfo {
  cargoStatus: string;
  cargoStatusId?: number | null;
  takeOnStockDateTime?: string | null;
  sendingDateTime?: string | null;
  arrivalPlanDateTime?: string | null;
  arrivalDateTime?: string | null;
  deliveryPlanDate?: string | null;
  giveOutDateTime?: string | null;
  receivedByClientDateTime?: string | null;
}

export interface PecServices {
  /** The cost of PEC's services, roubles (a JSON number or a numeric string). */
  sum?: number | string | null;
}

export interface PecCargoStatus {
  cargo: PecCargo;
  info: PecCargoInfo;
  services?: PecServices | null;
  sender?: { city?: string | null } | null;
  receiver?: { city?: string | null } | null;
}

export interface PecStatusReply {
  cargos: PecCargoStatus[];
}

/** PEC's CommonErrorEnvelope, with 400 / 403 / 500. */
export interface PecErrorEnvelope {
  error: {
    title?: string | null;
    message?: string | null;
    error?: string | null;
    status?: number | null;
    fields?: Array<{ field?: string | null; message?: string | null } | string> | null;
  };
}
