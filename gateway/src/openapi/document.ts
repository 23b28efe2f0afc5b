import { OpenAPIRegistry, OpenApiGeneratorV31, type RouteConfig } from '@asteasolutions/zod-to-openapi';
import { AUTH_HEADER, HTTP_OWNERS, MESSAGES, type HttpPath } from '@caravan/contracts';
import { z } from 'zod';
import { methodDocs, type MethodDoc } from './methods';
import { HTTP_PATH_DOCS, type PathDoc } from './paths';

/** The path of one `call_pg_func` method: the real path with the method as its fragment (docs/adr/0026). */
export const methodPath = (method: string) => `/api/call_pg_func#${method}`;
/** An Express route as an OpenAPI path: `/api/files/:name` → `/api/files/{name}`. */
export const openApiPath = (route: string) => route.replace(/:(\w+)/g, '{$1}');

const SECURITY = 'authToken';

const FailReply = z.object({ ok: z.literal(false), result: z.null(), message: z.string() }).meta({
  id: 'FailReply',
  description: 'A refusal: `message` says why, in Russian, as the user should read it. Nothing was changed.',
});

const UNDESCRIBED = () =>
  z
    .unknown()
    .meta({ description: 'Not described in the contracts yet (docs/adr/0026-openapi.md): any JSON value.' });

const okReply = (result: z.ZodType | null) =>
  z.object({ ok: z.literal(true), result: result ?? UNDESCRIBED(), message: z.string().optional() });

/** The envelope of every JSON reply: `{ok: true, result}` or `{ok: false, result: null, message}`. */
const envelope = (result: z.ZodType | null, id?: string) => {
  const schema = z.union([okReply(result), FailReply]);
  return id ? schema.meta({ id }) : schema;
};

/** Refusals by their MESSAGES key: components/examples, referred to by the responses. */
const REFUSAL_MESSAGES = {
  notAuthenticated: MESSAGES.notAuthenticated,
  sessionExpired: MESSAGES.sessionExpired,
  waitingAuth: MESSAGES.waitingAuth,
  fired: MESSAGES.fired,
  invalidJson: MESSAGES.invalidJson,
  bodyTooDeep: MESSAGES.bodyTooDeep,
  bodyTooLarge: MESSAGES.bodyTooLarge,
  unsupportedBody: MESSAGES.unsupportedBody,
  unsupportedEncoding: MESSAGES.unsupportedEncoding,
  somethingWentWrong: MESSAGES.somethingWentWrong,
  serviceUnavailable: MESSAGES.serviceUnavailable,
  serviceNoAnswer: MESSAGES.serviceNoAnswer,
  accessDenied: MESSAGES.accessDenied,
  notFound: MESSAGES.notFound,
  unknownField: MESSAGES.unknownField('x'),
  unknownMethod: MESSAGES.unknownMethod('x'),
  invalidParams: MESSAGES.invalidParams,
} as const;
type RefusalName = keyof typeof REFUSAL_MESSAGES;

const exampleRefs = (names: readonly RefusalName[]) =>
  Object.fromEntries(names.map((name) => [name, { $ref: `#/components/examples/${name}` }]));

/** The statuses answered with a refusal, each a components/responses entry with its messages. */
const REFUSAL_RESPONSES = {
  Unauthorized: {
    status: 401,
    description: 'No session, or the session has expired',
    messages: ['notAuthenticated', 'sessionExpired'],
  },
  Forbidden: {
    status: 403,
    description: 'The user is waiting for confirmation or is blocked',
    messages: ['waitingAuth', 'fired'],
  },
  BadBody: {
    status: 400,
    description: 'The body is not JSON, or nested too deep',
    messages: ['invalidJson', 'bodyTooDeep'],
  },
  TooLarge: { status: 413, description: 'The body is too large', messages: ['bodyTooLarge'] },
  UnsupportedBody: {
    status: 415,
    description: 'The body is not JSON in UTF-8, or compressed in an unknown way',
    messages: ['unsupportedBody', 'unsupportedEncoding'],
  },
  Failure: { status: 500, description: 'A failure of ours (logged)', messages: ['somethingWentWrong'] },
  Unavailable: {
    status: 503,
    description: 'The owning service or its database is unavailable: retry',
    messages: ['serviceUnavailable', 'serviceNoAnswer'],
  },
} as const satisfies Record<
  string,
  { status: number; description: string; messages: readonly RefusalName[] }
>;
type RefusalResponse = keyof typeof REFUSAL_RESPONSES;

const refusals = (...names: RefusalResponse[]) =>
  Object.fromEntries(
    names.map((name) => [REFUSAL_RESPONSES[name].status, { $ref: `#/components/responses/${name}` }]),
  );
const SESSION_REFUSALS = refusals('Unauthorized', 'Forbidden');
const BODY_REFUSALS = refusals('BadBody', 'TooLarge', 'UnsupportedBody');
const SERVER_REFUSALS = refusals('Failure', 'Unavailable');

function registerRefusals(registry: OpenAPIRegistry) {
  for (const [name, message] of Object.entries(REFUSAL_MESSAGES))
    registry.registerComponent('examples', name, { value: { ok: false, result: null, message } });
  for (const [name, r] of Object.entries(REFUSAL_RESPONSES))
    registry.registerComponent('responses', name, {
      description: r.description,
      content: {
        'application/json': {
          schema: { $ref: '#/components/schemas/FailReply' },
          examples: exampleRefs(r.messages),
        },
      },
    });
}

const idempotencyKey = z.object({
  'Idempotency-Key': z.string().min(8).max(200).optional().meta({
    description:
      'One key per user action: a repeat of the key answers the first reply and changes nothing (8–200 printable ASCII characters).',
  }),
});

/** Can the method be called without params (`params` absent is taken as {})? */
const paramsOptional = (params: z.ZodType) => params.safeParse({}).success;

function registerMethod(registry: OpenAPIRegistry, doc: MethodDoc) {
  const params = doc.params.meta({ id: `${doc.method}_params` });
  const call = z
    .object({
      method: z.literal(doc.method),
      params: paramsOptional(doc.params) ? params.optional() : params,
    })
    .meta({ id: `${doc.method}_call` });
  const route: RouteConfig = {
    method: 'post',
    path: methodPath(doc.method),
    operationId: doc.method,
    tags: [doc.tag],
    summary: doc.summary,
    description: [
      doc.description,
      `Answered by ${doc.owner === 'gateway' ? 'the gateway' : `svc-${doc.owner}`}.`,
      'POST /api/call_pg_func with this body (the fragment is not sent: it only names the method here). A refusal is HTTP 200 with ok: false and a Russian message: invalid params, no access, a business rule.',
    ]
      .filter(Boolean)
      .join('\n\n'),
    security: [{ [SECURITY]: [] }],
    request: {
      headers: idempotencyKey,
      body: { required: true, content: { 'application/json': { schema: call } } },
    },
    responses: {
      200: {
        description: 'The result (ok: true), or a refusal (ok: false) with a Russian message',
        content: {
          'application/json': {
            schema: envelope(doc.result, `${doc.method}_reply`),
            examples: exampleRefs(['accessDenied', 'notFound', 'unknownField']),
          },
        },
      },
      ...SESSION_REFUSALS,
      ...BODY_REFUSALS,
      ...SERVER_REFUSALS,
    },
    'x-caravan-owner': doc.owner,
  };
  registry.registerPath(route);
  return call;
}

/** The real path: one body of any method, discriminated by `method`. */
function registerCallPgFunc(registry: OpenAPIRegistry, calls: z.ZodObject[], doc: PathDoc) {
  registry.registerPath({
    method: 'post',
    path: '/api/call_pg_func',
    operationId: 'call_pg_func',
    tags: [doc.tag],
    summary: doc.summary,
    description:
      'Every method is also described on its own path, /api/call_pg_func#<method>, with its params and its result: a client generated from this document calls those (the fragment is not sent).',
    security: [{ [SECURITY]: [] }],
    request: {
      headers: idempotencyKey,
      body: {
        required: true,
        content: {
          'application/json': {
            schema: z.discriminatedUnion('method', calls as [z.ZodObject, ...z.ZodObject[]]),
          },
        },
      },
    },
    responses: {
      200: {
        description: 'The result (ok: true), or a refusal (ok: false) with a Russian message',
        content: {
          'application/json': {
            schema: envelope(null, 'Reply'),
            examples: exampleRefs(['unknownMethod', 'invalidParams']),
          },
        },
      },
      ...SESSION_REFUSALS,
      ...BODY_REFUSALS,
      ...SERVER_REFUSALS,
    },
    'x-caravan-owner': 'gateway',
  });
}

function replyContent(reply: PathDoc['reply'], id: string): RouteConfig['responses'][number] {
  switch (reply.kind) {
    case 'envelope':
      return {
        description: 'The result (ok: true), or a refusal (ok: false) with a Russian message',
        content: { 'application/json': { schema: envelope(reply.result, `${id}_reply`) } },
      };
    case 'file':
      return {
        description: reply.description,
        content: Object.fromEntries([
          ...reply.contentTypes.map((type) => [type, { schema: { type: 'string', format: 'binary' } }]),
          ['application/json', { schema: FailReply }],
        ]),
      };
    case 'event-stream':
      return {
        description: 'text/event-stream: one event per change the user may see (retry: 3000)',
        content: { 'text/event-stream': { schema: { type: 'string' } } },
      };
    case 'html':
      return { description: 'The page', content: { 'text/html': { schema: { type: 'string' } } } };
    case 'openapi':
      return {
        description: 'This OpenAPI 3.1 document',
        content: { 'application/json': { schema: { type: 'object' } } },
      };
    case 'text':
      return { description: reply.description, content: { 'text/plain': { schema: { type: 'string' } } } };
  }
}

function registerHttpPath(registry: OpenAPIRegistry, route: HttpPath, doc: PathDoc) {
  const session = doc.auth !== 'public';
  const body = doc.body;
  const owner = HTTP_OWNERS[route];
  const operationId = `${doc.method}_${route.replace(/^\/api\//, '').replace(/[^a-z0-9]+/gi, '_')}`;
  const refusals: RouteConfig['responses'] = {
    ...(session ? SESSION_REFUSALS : {}),
    ...(body && 'json' in body ? BODY_REFUSALS : {}),
    ...Object.fromEntries(
      Object.entries(doc.refusals ?? {}).map(([status, description]) => [
        status,
        { description, content: { 'application/json': { schema: FailReply } } },
      ]),
    ),
    ...(doc.reply.kind === 'envelope' || doc.reply.kind === 'file' ? SERVER_REFUSALS : {}),
  };
  registry.registerPath({
    method: doc.method,
    path: openApiPath(route),
    operationId,
    tags: [doc.tag],
    summary: doc.summary,
    description: [doc.description, `Answered by ${owner === 'gateway' ? 'the gateway' : `svc-${owner}`}.`]
      .filter(Boolean)
      .join('\n\n'),
    security: doc.auth === 'session' ? [{ [SECURITY]: [] }] : [],
    request: {
      params: doc.pathParams,
      query: doc.query,
      body: !body
        ? undefined
        : 'json' in body
          ? { required: true, content: { 'application/json': { schema: body.json } } }
          : 'multipart' in body
            ? { required: true, content: { 'multipart/form-data': { schema: body.multipart } } }
            : { description: body.vendor, content: { '*/*': { schema: {} } } },
    },
    responses: { 200: replyContent(doc.reply, operationId), ...refusals },
    'x-caravan-owner': owner,
  });
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * Fixes what the generator writes wrongly: a regex with flags (`/^[a-z_]+$/i`) comes out with the
 * flags glued to the pattern ("…$/i"), which no string matches. JSON Schema has no flags: the
 * pattern is kept without them (docs/adr/0026: case-insensitive patterns read as lower case).
 */
function fixPatterns(node: Json): Json {
  if (Array.isArray(node)) return node.map(fixPatterns);
  if (!node || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) => [
      key,
      key === 'pattern' && typeof value === 'string'
        ? value.replace(/\/[dgimsuvy]+$/, '')
        : fixPatterns(value),
    ]),
  );
}

export type OpenApiDocument = ReturnType<OpenApiGeneratorV31['generateDocument']>;

/**
 * The OpenAPI 3.1 document of the whole API, generated from the zod contracts: every `call_pg_func`
 * method of the routing table on its own path, and every HTTP path.
 */
export function buildOpenApiDocument(version = '0.1.0'): OpenApiDocument {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', SECURITY, {
    type: 'apiKey',
    in: 'header',
    name: AUTH_HEADER,
    description: 'The session token /api/login answers.',
  });
  registerRefusals(registry);
  const calls = methodDocs().map((doc) => registerMethod(registry, doc));
  for (const [route, doc] of Object.entries(HTTP_PATH_DOCS) as [HttpPath, PathDoc][]) {
    if (route === '/api/call_pg_func') registerCallPgFunc(registry, calls, doc);
    else registerHttpPath(registry, route, doc);
  }
  const document = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Caravan API',
      version,
      description: [
        'Every call goes through the gateway under /api with the session token in the Auth-token header.',
        'Methods are called as POST /api/call_pg_func {method, params}; each has its own path here, /api/call_pg_func#<method> (the fragment is not sent).',
        'Every JSON reply is {ok, result, message}: a refusal is ok: false with a Russian message — HTTP 200 for a business refusal (invalid params, no access, a rule), 4xx/5xx only for transport and session failures.',
        'Money and decimals are strings (a number is accepted on input and read as written).',
      ].join('\n\n'),
    },
  });
  return fixPatterns(document as unknown as Json) as unknown as OpenApiDocument;
}
