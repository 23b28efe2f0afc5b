import {
  ReportFilters,
  CarrierOrderGetInput,
  CdekOrderCreateInput,
  CntWaybillGetInput,
  CntWaybillRegisterInput,
  CurrentUser,
  EmailTokenParams,
  EXCEL_EXTENSIONS,
  InvoiceDownloadParams,
  LoginParams,
  NewPasswordParams,
  OzonPostingGetInput,
  RecoveryParams,
  REMOTE_NAMES,
  RegistrationParams,
  SbpCreateParams,
  SuggestParams,
  type CatalogueItem,
  type HttpPath,
  type RemoteManifest,
  type UploadedFile,
} from '@caravan/contracts';
import { z } from 'zod';

/** How a path is reached: with the session's Auth-token header, with none, or with the token in the query (SSE). */
export type PathAuth = 'session' | 'public' | 'query-token';

/**
 * What a path answers with status 200: the `{ok, result, message}` envelope around `result` (a zod
 * schema, or null: any JSON value, listed in docs/adr/0026-openapi.md), or something else entirely.
 */
export type PathReply =
  | { kind: 'envelope'; result: z.ZodType | null }
  | { kind: 'file'; contentTypes: readonly string[]; description: string }
  | { kind: 'event-stream' }
  | { kind: 'html' }
  | { kind: 'openapi' }
  | { kind: 'text'; description: string };

export type PathDoc = {
  method: 'get' | 'post';
  tag: string;
  summary: string;
  description?: string;
  auth: PathAuth;
  /** The body: JSON checked by the schema, or a multipart form. */
  body?: { json: z.ZodType } | { multipart: z.ZodType } | { vendor: string };
  query?: z.ZodObject;
  pathParams?: z.ZodObject;
  reply: PathReply;
  /** Statuses other than 200 this path answers with a refusal `{ok: false, message}`, beyond the common ones. */
  refusals?: Partial<Record<400 | 401 | 403 | 404 | 413 | 415 | 503, string>>;
};

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

const UploadedFileSchema = z
  .object({ file: z.string(), name: z.string(), size: z.number().int(), mime: z.string() })
  .meta({
    id: 'UploadedFile',
    description: 'A stored file: its link (/api/files/{name}), name, size and type.',
  });
const RemoteManifestSchema = z
  .array(
    z.object({
      name: z.enum(REMOTE_NAMES as [string, ...string[]]),
      entry: z.string(),
      version: z.string().optional().meta({
        description: 'the release configuration pins (REMOTE_<NAME>_VERSION); absent: the current one',
      }),
    }),
  )
  .meta({ id: 'RemoteManifest', description: "Where each remote's Module Federation manifest is." });
const CatalogueItemSchema = z
  .object({
    id: z.number().int(),
    img: z.string(),
    title: z.string(),
    manufacturer: z.string(),
    brand: z.string(),
    quality: z.string(),
    price: z.string(),
  })
  .meta({ id: 'CatalogueItem', description: 'A sample catalogue item shown to visitors (price in yuan).' });
const sameUpload: Same<z.infer<typeof UploadedFileSchema>, UploadedFile> = true;
const sameCatalogue: Same<z.infer<typeof CatalogueItemSchema>, CatalogueItem> = true;
const sameRemotes: Same<
  Omit<z.infer<typeof RemoteManifestSchema>[number], 'name'>,
  Omit<RemoteManifest[number], 'name'>
> = true;
void sameUpload;
void sameCatalogue;
void sameRemotes;

const binary = (description: string) => z.string().meta({ format: 'binary', description });
const UploadForm = z.object({
  file: z.union([binary('one file'), z.array(binary('several files'))]),
  extensions: z.string().optional().meta({ description: 'allowed extensions, e.g. "pdf,docx"' }),
});
const ExcelImportForm = z.object({
  file: binary(`the supplier's invoice: ${EXCEL_EXTENSIONS.join(', ')}`),
  type: z.literal('invoice').optional(),
  orderId: z.string().meta({ description: 'the draft order the rows are for' }),
});
const message = z.string().meta({ description: 'what to tell the user (Russian)' });
const carrierRefusals = {
  400: 'the params are wrong, or the carrier refused (Russian message)',
  404: 'no such order or waybill for this caller',
  503: "the carrier's API did not answer",
} as const;

/**
 * Every HTTP path of the routing table, described. Keyed by HttpPath: a path added to HTTP_OWNERS
 * without an entry here fails the typecheck (and the unit test beside this file).
 */
export const HTTP_PATH_DOCS: Record<HttpPath, PathDoc> = {
  '/api/login': {
    method: 'post',
    tag: 'auth',
    summary: 'Signs in: the session token (send it as Auth-token) and the user',
    auth: 'public',
    body: { json: LoginParams },
    reply: { kind: 'envelope', result: z.object({ token: z.string(), user: CurrentUser }) },
  },
  '/api/logout': {
    method: 'post',
    tag: 'auth',
    summary: 'Ends the session of the Auth-token given (answers true with or without one)',
    auth: 'public',
    reply: { kind: 'envelope', result: z.literal(true) },
  },
  '/api/user_current': {
    method: 'get',
    tag: 'auth',
    summary: 'The signed-in user, in any state (the shell shows the waiting or blocked page by it)',
    auth: 'session',
    reply: { kind: 'envelope', result: CurrentUser },
  },
  '/api/register': {
    method: 'post',
    tag: 'auth',
    summary: 'Registration: sends the email confirmation',
    auth: 'public',
    body: { json: RegistrationParams },
    reply: { kind: 'envelope', result: message },
  },
  '/api/recover_password': {
    method: 'post',
    tag: 'auth',
    summary: 'Password recovery: sends the link',
    auth: 'public',
    body: { json: RecoveryParams },
    reply: { kind: 'envelope', result: message },
  },
  '/api/check_user_email': {
    method: 'post',
    tag: 'auth',
    summary: "Confirms the email by the letter's token",
    auth: 'public',
    body: { json: EmailTokenParams },
    reply: { kind: 'envelope', result: message },
  },
  '/api/email_auth_recover_password': {
    method: 'post',
    tag: 'auth',
    summary: "Sets a new password by the recovery letter's token",
    auth: 'public',
    body: { json: NewPasswordParams },
    reply: { kind: 'envelope', result: message },
  },
  '/api/sse': {
    method: 'get',
    tag: 'events',
    summary: 'Server-sent events the user may see: wallet_item, client_order_item, order, notification',
    description: 'EventSource cannot send headers: the session token goes in the query as authToken.',
    auth: 'query-token',
    query: z.object({
      authToken: z.string(),
      type: z
        .string()
        .optional()
        .meta({ description: 'wallet_item | client_order_item | order | notification' }),
      param: z.string().optional().meta({ description: 'the id of the one record to follow' }),
    }),
    reply: { kind: 'event-stream' },
  },
  '/api/remotes': {
    method: 'get',
    tag: 'shell',
    summary: "The remotes' manifests (decided by configuration at run time)",
    auth: 'public',
    reply: { kind: 'envelope', result: RemoteManifestSchema },
  },
  '/api/catalogue': {
    method: 'get',
    tag: 'shell',
    summary: 'The sample catalogue shown to visitors',
    auth: 'public',
    reply: { kind: 'envelope', result: z.array(CatalogueItemSchema) },
  },
  '/api/openapi.json': {
    method: 'get',
    tag: 'shell',
    summary: 'This document',
    auth: 'public',
    reply: { kind: 'openapi' },
  },
  '/api/docs': {
    method: 'get',
    tag: 'shell',
    summary: 'The reference page of this document',
    auth: 'public',
    reply: { kind: 'html' },
  },
  // described by the per-method paths /api/call_pg_func#<method> (document.ts)
  '/api/call_pg_func': {
    method: 'post',
    tag: 'call_pg_func',
    summary: 'Calls a method: {method, params} → {ok, result, message}',
    auth: 'session',
    reply: { kind: 'envelope', result: null },
  },
  '/api/client_order_excel_import': {
    method: 'post',
    tag: 'client_order_position',
    summary: "Reads a supplier's invoice into rows for the import dialog (nothing is stored)",
    description: 'Only for a draft order the caller may change. The rows go to client_order_position_import.',
    auth: 'session',
    body: { multipart: ExcelImportForm },
    reply: { kind: 'envelope', result: null },
    refusals: { 400: 'the form could not be read' },
  },
  '/api/upload_file': {
    method: 'post',
    tag: 'files',
    summary: 'Stores files (all or none) and answers their links',
    auth: 'session',
    body: { multipart: UploadForm },
    reply: { kind: 'envelope', result: z.array(UploadedFileSchema) },
    refusals: { 400: 'the form could not be read' },
  },
  '/api/upload_image': {
    method: 'post',
    tag: 'files',
    summary: 'Stores images (all or none; the type is checked by content) and answers their links',
    auth: 'session',
    body: { multipart: UploadForm },
    reply: { kind: 'envelope', result: z.array(UploadedFileSchema) },
    refusals: { 400: 'the form could not be read' },
  },
  '/api/files/:name': {
    method: 'get',
    tag: 'files',
    summary: 'A stored file (public: the names are random UUIDs)',
    auth: 'public',
    pathParams: z.object({ name: z.string() }),
    reply: { kind: 'file', contentTypes: ['application/octet-stream'], description: 'the file as stored' },
    refusals: { 404: 'no such file' },
  },
  '/api/client_order_invoice_download': {
    method: 'post',
    tag: 'payments',
    summary: 'The invoice of an order as PDF or XLSX (a refusal answers JSON with ok: false)',
    auth: 'session',
    body: { json: InvoiceDownloadParams },
    reply: {
      kind: 'file',
      contentTypes: ['application/pdf', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
      description: 'the invoice, named in content-disposition; or {ok: false, message} as JSON',
    },
  },
  '/api/client_order_report_download': {
    method: 'post',
    tag: 'client_order',
    summary: 'The client order report as XLSX, with the same filters (a refusal answers JSON with ok: false)',
    auth: 'session',
    body: { json: ReportFilters },
    reply: {
      kind: 'file',
      contentTypes: ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
      description: 'the report, named in content-disposition; or {ok: false, message} as JSON',
    },
  },
  '/api/modul_sbp_create': {
    method: 'post',
    tag: 'payments',
    summary: 'Starts a payment by SBP QR, SBP link or card: what the payer needs',
    description: 'Nothing moves until the acquirer calls back (/api/acquiring/callback).',
    auth: 'session',
    body: { json: SbpCreateParams },
    reply: { kind: 'envelope', result: null },
  },
  '/api/acquiring/callback': {
    method: 'post',
    tag: 'payments',
    summary: "The acquirer's callback (trusted only by its signature)",
    auth: 'public',
    body: { vendor: "the acquirer's form fields, signed" },
    reply: { kind: 'text', description: 'plain text for the acquirer' },
  },
  '/api/cdek_order_create': {
    method: 'post',
    tag: 'carriers',
    summary: 'The operator creates the CDEK waybill of an order (CdekOrderCreateResult)',
    auth: 'session',
    body: { json: CdekOrderCreateInput },
    reply: { kind: 'envelope', result: null },
    refusals: carrierRefusals,
  },
  '/api/pec_order_get': {
    method: 'post',
    tag: 'carriers',
    summary: "Syncs the order's PEC status (PecOrderGetResult)",
    auth: 'session',
    body: { json: CarrierOrderGetInput },
    reply: { kind: 'envelope', result: null },
    refusals: carrierRefusals,
  },
  '/api/jde_order_get': {
    method: 'post',
    tag: 'carriers',
    summary: "Syncs the order's JDE status (JdeOrderGetResult)",
    auth: 'session',
    body: { json: CarrierOrderGetInput },
    reply: { kind: 'envelope', result: null },
    refusals: carrierRefusals,
  },
  '/api/ozon_posting_get': {
    method: 'post',
    tag: 'carriers',
    summary: 'An Ozon posting of the order (OzonPosting)',
    auth: 'session',
    body: { json: OzonPostingGetInput },
    reply: { kind: 'envelope', result: null },
    refusals: carrierRefusals,
  },
  '/api/cnt_waybill_register': {
    method: 'post',
    tag: 'carriers',
    summary: 'Registers a waybill with the tracking service (CntWaybillInfo)',
    auth: 'session',
    body: { json: CntWaybillRegisterInput },
    reply: { kind: 'envelope', result: null },
    refusals: carrierRefusals,
  },
  '/api/cnt_waybill_get': {
    method: 'post',
    tag: 'carriers',
    summary: "A waybill's tracking (CntWaybillInfo)",
    auth: 'session',
    body: { json: CntWaybillGetInput },
    reply: { kind: 'envelope', result: null },
    refusals: carrierRefusals,
  },
  '/api/suggest_address': {
    method: 'post',
    tag: 'suggestions',
    summary: 'Address suggestions of the address inputs',
    auth: 'session',
    body: { json: SuggestParams },
    reply: { kind: 'envelope', result: null },
  },
  '/api/suggest_company': {
    method: 'post',
    tag: 'suggestions',
    summary: 'Company suggestions (by name or INN)',
    auth: 'session',
    body: { json: SuggestParams },
    reply: { kind: 'envelope', result: null },
  },
  '/api/suggest_bank': {
    method: 'post',
    tag: 'suggestions',
    summary: 'Bank suggestions (by name or BIC)',
    auth: 'session',
    body: { json: SuggestParams },
    reply: { kind: 'envelope', result: null },
  },
  '/api/carriers/webhook/:vendor': {
    method: 'post',
    tag: 'carriers',
    summary:
      "A carrier's webhook (trusted only by the vendor's signature or the secret in the subscribed URL)",
    auth: 'public',
    pathParams: z.object({ vendor: z.string() }),
    body: { vendor: "the carrier's documented payload" },
    reply: { kind: 'text', description: 'an acknowledgement for the vendor' },
  },
};
