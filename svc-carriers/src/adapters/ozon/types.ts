/**
 * The Ozon Seller API as it answers (vendor-apis §5; diPhantxm/ozon-api-client `ozon/fbs.go`, `core.go`):
 * only the fields we send or read. Every call is POST JSON with the headers `Client-Id` and `Api-Key`.
 */

/** POST /v3/posting/fbs/get */
export interface OzonPostingRequest {
  posting_number: string;
  with?: {
    analytics_data?: boolean;
    barcodes?: boolean;
    financial_data?: boolean;
    product_exemplars?: boolean;
    related_postings?: boolean;
    translit?: boolean;
  };
}

export interface OzonWireProduct {
  sku: number;
  offer_id: string;
  name: string;
  quantity: number;
  /** Per unit, a decimal string ('1390.0000'). */
  price: string;
  currency_code: string;
  /** Strings; weight in grams, sides in millimetres (see mapping.ts). */
  dimensions?: { height?: string; length?: string; weight?: string; width?: string } | null;
}

export interface OzonWirePosting {
  posting_number: string;
  order_id?: number;
  order_number?: string;
  status: string;
  substatus?: string;
  tracking_number?: string | null;
  in_process_at?: string | null;
  shipment_date?: string | null;
  delivering_date?: string | null;
  products: OzonWireProduct[];
}

export interface OzonPostingReply {
  result: OzonWirePosting;
}

/**
 * Every refusal (`CommonResponse`): gRPC-style codes — 3 invalid argument, 5 not found, 7 permission denied,
 * 8 rate limit, 16 unauthenticated, 13 internal.
 */
export interface OzonErrorReply {
  code: number;
  message: string;
  details: Array<{ typeUrl?: string; value?: string }>;
}
