/**
 * What svc-payments needs of an acquiring bank (ADR 0012): create a payment the payer completes on the
 * bank's side (an SBP link, shown as a QR or opened; a card bill page), and tell a genuine callback
 * from a forged one. Implemented by the Modulbank client (adapters/modulbank), which talks to the real
 * bank or to the built-in sandbox acquirer speaking the same protocol.
 */
export type AcquirerPaymentRequest = {
  /** our payment id: the acquirer echoes it back in the callback as order_id */
  orderId: string;
  /** what the payer pays, with the method's fee, 2 decimals ('1007.05') */
  amount: string;
  description: string;
  /** where the acquirer posts the signed result */
  callbackUrl: string;
  /** where the payer page sends the payer back (optional) */
  successUrl?: string;
  testing: boolean;
  clientEmail?: string;
};

/** The acquirer's callback as parsed and verified: the fields svc-payments acts on. */
export type AcquirerCallback = {
  orderId: string;
  transactionId: string;
  amount: string;
  currency: string;
  /** COMPLETE = paid; anything else is a failure of the payment (FAILED, …) */
  state: string;
  testing: boolean;
  message: string;
};

export interface Acquirer {
  /** SBP: a link (https://qr.nspk.ru/… in production) the payer opens or scans as a QR. */
  createSbpPayment(req: AcquirerPaymentRequest): Promise<{ sbpLink: string; transactionId: string }>;
  /** Card: a bill whose page the payer opens in a new tab. */
  createBill(req: AcquirerPaymentRequest): Promise<{ url: string; transactionId: string }>;
  /** The callback's form fields, checked by signature (and merchant); null when forged or malformed. */
  verifyCallback(form: Record<string, string>): AcquirerCallback | null;
  /** The bank's own word on a payment, asked when its callback did not come. */
  getTransaction(transactionId: string): Promise<AcquirerTransaction>;
}

/**
 * A thrown error the user may read (the acquirer's own message, or a network failure in words).
 * `notFound`: the bank answered that it has no such payment (it never started it).
 */
export class AcquirerError extends Error {
  constructor(
    message: string,
    readonly notFound = false,
  ) {
    super(message);
  }
}

/** What the bank says of one payment when asked (reconciliation, ADR 0014). */
export type AcquirerTransaction = {
  transactionId: string;
  orderId: string;
  /** COMPLETE = paid; FAILED, EXPIRED… = will not be; PROCESSING… = still on the way */
  state: string;
  amount: string;
  currency: string;
  testing: boolean;
  message: string;
};
