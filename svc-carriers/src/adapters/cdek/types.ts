/**
 * CDEK API v2 wire format (vendor-apis §1; api-docs.cdek.ru pages 33828799, 33828802, 33828849,
 * 33828884, 33828888, 77695227). Only the fields we send or read; CDEK sends more.
 */

/** POST /v2/oauth/token answer. */
export interface CdekToken {
  access_token: string;
  token_type: string;
  /** Seconds (3599 or 3600 in practice). */
  expires_in: number;
  scope?: string;
  jti?: string;
}

/** What the OAuth endpoint (and a rejected bearer token) answers: plain OAuth 2.0 error fields. */
export interface CdekOAuthError {
  error: string;
  error_description?: string;
}

/** One vendor error (77695227): `v2_field_is_empty`, `v2_entity_not_found`, … */
export interface CdekError {
  code: string;
  message: string;
}

export type CdekRequestState = 'ACCEPTED' | 'WAITING' | 'SUCCESSFUL' | 'INVALID';

export interface CdekRequest {
  request_uuid?: string;
  type: string;
  date_time: string;
  state: CdekRequestState;
  errors?: CdekError[];
  warnings?: CdekError[];
}

/** The answer of every write (`EntityOperation`), and the error envelope of reads. */
export interface CdekEntityOperation {
  entity?: { uuid: string };
  requests?: CdekRequest[];
  errors?: CdekError[];
}

export interface CdekLocation {
  code?: number;
  postal_code?: string;
  country_code?: string;
  city?: string;
  address: string;
}

export interface CdekContact {
  name: string;
  company?: string;
  email?: string;
  phones?: Array<{ number: string; additional?: string }>;
}

export interface CdekMoney {
  /** CDEK wants JSON numbers for money; our numeric strings are turned into numbers only here, on the wire. */
  value: number;
  vat_sum?: number;
  vat_rate?: number;
}

export interface CdekItem {
  name: string;
  ware_key: string;
  payment: CdekMoney;
  cost: number;
  /** Grams per unit. */
  weight: number;
  amount: number;
}

export interface CdekPackage {
  number: string;
  /** Grams. */
  weight: number;
  length?: number;
  width?: number;
  height?: number;
  comment?: string;
  items?: CdekItem[];
}

/** 1 = интернет-магазин (needs an e-shop contract), 2 = доставка. */
export type CdekOrderType = 1 | 2;

/** POST /v2/orders body. */
export interface CdekOrderRequest {
  type: CdekOrderType;
  /** Our reference; e-shop orders only, unique per account. */
  number?: string;
  tariff_code: number;
  comment?: string;
  shipment_point?: string;
  delivery_point?: string;
  from_location?: CdekLocation;
  to_location?: CdekLocation;
  recipient: CdekContact;
  sender?: CdekContact;
  packages: CdekPackage[];
}

/** One entry of `entity.statuses[]`. CDEK lists them newest first. */
export interface CdekStatusEntry {
  code: string;
  name: string;
  /** '2020-08-10T21:32:12+0700': ISO 8601 with an offset CDEK writes without a colon. */
  date_time: string;
  reason_code?: string;
  city?: string;
}

/** `entity` of GET /v2/orders/{uuid} and GET /v2/orders?cdek_number=… */
export interface CdekOrder {
  uuid: string;
  type?: CdekOrderType;
  cdek_number?: string;
  number?: string;
  tariff_code?: number;
  delivery_point?: string;
  from_location?: CdekLocation;
  to_location?: CdekLocation;
  recipient?: CdekContact;
  packages?: CdekPackage[];
  statuses?: CdekStatusEntry[];
  planned_delivery_date?: string;
  delivery_date?: string;
  delivery_detail?: Record<string, unknown>;
}

export interface CdekOrderInfo {
  entity?: CdekOrder;
  requests?: CdekRequest[];
  related_entities?: unknown[];
}

export type CdekWebhookType =
  | 'ORDER_STATUS'
  | 'PRINT_FORM'
  | 'DOWNLOAD_PHOTO'
  | 'PREALERT_CLOSED'
  | 'ACCOMPANYING_WAYBILL'
  | 'OFFICE_AVAILABILITY'
  | 'ORDER_MODIFIED'
  | 'DELIV_AGREEMENT'
  | 'DELIV_PROBLEM';

/** POST /v2/webhooks body; GET /v2/webhooks lists these with their uuid. */
export interface CdekWebhookSubscription {
  uuid?: string;
  url: string;
  type: CdekWebhookType;
}

/** What CDEK posts to the subscribed URL (33828884). CDEK signs nothing. */
export interface CdekWebhookPayload {
  type: string;
  date_time: string;
  /** The order's uuid. */
  uuid: string;
  attributes: {
    is_return?: boolean;
    cdek_number?: string;
    number?: string;
    /** Legacy numeric code. */
    status_code?: string;
    code?: string;
    status_reason_code?: string;
    status_date_time?: string;
    city_name?: string;
    city_code?: string;
    deleted?: boolean;
  };
}
