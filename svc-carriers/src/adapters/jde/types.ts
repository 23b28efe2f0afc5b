/**
 * ЖелДорЭкспедиция's API as it answers (vendor-apis §4; https://api.jde.ru/vD, the ShipmentSimpleStatus
 * DTO of StasPlov/jde-shipping at 50f46b9): only what we read or the sandbox writes.
 */

/** GET /cargos/status-by-code?ttn=<number>&user=<user>&token=<token> */
export interface JdeStatusByCode {
  /** JDE's id of the waybill */
  id: number;
  /** one of JDE_STATUSES */
  status: string;
  /** Moscow wall-clock time without a zone: '2026-11-24 17:40:05' (a fraction may follow) */
  date: string;
}

/**
 * Errors. No documentation was found; this is our best reading [guess]: a JSON object with the vendor's
 * words in `error` (a string, or {message}) under 400 / 401 / 403 / 429 / 5xx. A number JDE does not know
 * answers an empty array (the PHP client treats an empty `[]` reply as "nothing found"); a 404 means the
 * same.
 */
export interface JdeErrorBody {
  error?: string | { code?: number | string; message?: string } | null;
  message?: string | null;
  errors?: string[] | null;
}
