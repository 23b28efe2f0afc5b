import type { CarrierVendor, OrderStage, TrackedCarrier } from '@caravan/contracts';

/**
 * One multi-carrier layer (issue 18, docs/adr/0020). Every vendor adapter under `adapters/<vendor>/`
 * implements `Carrier` with a real HTTP client of the vendor's documented API and ships a sandbox server
 * speaking the same protocol (the default when no credentials are configured).
 *
 * Failures reach callers as `CarrierError`: `kind` says whether to retry (`unavailable`, `rate_limited`)
 * or not (`refused`, `auth`, `not_found`); `message` is already in the user's words (CARRIER_MESSAGES).
 */

/** The operator's credentials for one vendor (decrypted `transport_company_data[].api_data`). */
export interface CarrierCredentials {
  /** CDEK client_id / Ozon Client-Id / PEC login / JDE user / 17TRACK: unused. */
  client_id: string;
  /** CDEK client_secret / Ozon Api-Key / PEC API key / JDE token / 17TRACK 17token. */
  access_token: string;
}

/** One status of a shipment as the vendor reports it. */
export interface CarrierStatus {
  /** The vendor's own code or text (CDEK `code`, PEC `cargoStatus`, JDE `status`, Ozon `status`). */
  vendor_status: string;
  /** When the vendor says it happened (ISO 8601 with offset; PEC's zone-less dates read as +03:00). */
  status_at: string;
  city: string | null;
}

/** What a status query answers for one shipment. */
export interface ShipmentState {
  number: string;
  uuid: string | null;
  /** Oldest first; at least the current status. */
  statuses: CarrierStatus[];
  /** Vendor-specific facts the card shows (PEC: deliveryPlanDate, services.sum; JDE: date; Ozon: products). */
  details: Record<string, unknown>;
}

/** A shipment to create (CDEK's POST /v2/orders), built from the order by svc-carriers. */
export interface ShipmentDraft {
  /** Our reference: the client order id, sent as the vendor's `number`. */
  reference: string;
  tariff_code: number;
  recipient: { name: string; phone: string; email?: string | null };
  /** Pickup point code, or an address for door delivery. */
  delivery_point?: string | null;
  to_location?: { city: string; address: string } | null;
  from_location?: { city: string; address: string } | null;
  packages: Array<{
    number: string;
    weight_grams: number;
    length_cm?: number;
    width_cm?: number;
    height_cm?: number;
    items: Array<{
      name: string;
      ware_key: string;
      cost: string;
      amount: number;
      weight_grams: number;
      payment: string;
    }>;
  }>;
  comment?: string | null;
}

export interface CreatedShipment {
  uuid: string;
  number: string | null;
  statuses: CarrierStatus[];
}

/** A webhook the vendor pushed, already verified: one or more status changes. */
export interface PushedStatus {
  number: string;
  uuid: string | null;
  status: CarrierStatus;
}

export interface Carrier {
  readonly vendor: TrackedCarrier;
  /** Vendors that allow it (CDEK); the others leave it undefined. */
  createShipment?(credentials: CarrierCredentials, draft: ShipmentDraft): Promise<CreatedShipment>;
  /** Status of up to `batchSize` shipments in one call (PEC: 15; others: 1). Missing numbers are left out. */
  readonly batchSize: number;
  getStatuses(credentials: CarrierCredentials, numbers: readonly string[]): Promise<ShipmentState[]>;
  /** The order stage the vendor status means (contracts stageForCarrierStatus). */
  stageFor(vendorStatus: string): OrderStage | null;
  /**
   * A webhook request from the vendor: verified (the vendor's signature, or for CDEK, which signs nothing,
   * the `token` query parameter we put in the URL we subscribed with, compared in constant time with
   * `secret`), parsed. Throws CarrierError('refused') when forged. Vendors without webhooks leave it undefined.
   */
  verifyWebhook?(request: WebhookRequest, secret: string): PushedStatus[];
  /** The vendor's documented request budget: the sync never exceeds it. */
  readonly rateLimit: { requestsPerSecond: number };
}

export interface WebhookRequest {
  headers: Record<string, string | string[] | undefined>;
  query: Record<string, string | undefined>;
  rawBody: Buffer;
}

export type CarrierErrorKind = 'unavailable' | 'rate_limited' | 'refused' | 'auth' | 'not_found';

export class CarrierError extends Error {
  constructor(
    readonly vendor: CarrierVendor,
    readonly kind: CarrierErrorKind,
    /** In the user's words, with the vendor's own message where it has one (CARRIER_MESSAGES). */
    message: string,
    /** For 429: how long the vendor asked us to wait. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'CarrierError';
  }
  get retryable() {
    return this.kind === 'unavailable' || this.kind === 'rate_limited';
  }
}

/** The Chinese domestic-courier tracker (17TRACK-style): register a waybill, read its events, verify pushes. */
export interface WaybillTracker {
  register(
    credentials: CarrierCredentials,
    waybills: ReadonlyArray<{ waybill: string; tag: string }>,
  ): Promise<{
    accepted: string[];
    rejected: Array<{ waybill: string; message: string }>;
  }>;
  get(credentials: CarrierCredentials, waybill: string): Promise<TrackedWaybill | null>;
  verifyPush(request: WebhookRequest, credentials: CarrierCredentials): TrackedWaybill;
  readonly rateLimit: { requestsPerSecond: number };
}

export interface TrackedWaybill {
  waybill: string;
  /** 17TRACK main status (NotFound, InTransit, Delivered, …). */
  status: string;
  tag: string | null;
  /** Newest first. */
  events: Array<{ at: string; text: string; city: string | null }>;
}

/**
 * What each vendor's `index.ts` exports as `create<Vendor>(env, log)`: the adapter, and the built-in sandbox
 * it started when the environment names no real vendor (stop it on shutdown), else null.
 */
export interface VendorSetup<T> {
  adapter: T;
  sandbox: { url: string; stop(): Promise<void> } | null;
}
