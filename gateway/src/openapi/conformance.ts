import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';

/** The parts of an OpenAPI document the check reads. */
type Ref = { $ref: string };
type Media = { schema?: Ref | Record<string, unknown> };
type Response = { content?: Record<string, Media> } | Ref;
export type OpenApiLike = {
  paths: Record<string, Record<string, { responses?: Record<string, Response> }>>;
  components?: { schemas?: Record<string, unknown>; responses?: Record<string, Response> };
};

/** One reply to check: the request that got it and what came back. */
export type ObservedReply = {
  httpMethod: string;
  /** The URL's path, without the query. */
  path: string;
  /** For /api/call_pg_func: the method in the request's body. */
  method?: string;
  status: number;
  body: unknown;
};

const DOCUMENT_ID = 'caravan:openapi';
const isRef = (value: unknown): value is Ref =>
  typeof value === 'object' && value !== null && typeof (value as Ref).$ref === 'string';

/** `/api/files/{name}` as a pattern that matches `/api/files/abc.png`. */
const templatePattern = (template: string) =>
  new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+')}$`);

/**
 * Checks real replies against the document (docs/adr/0026): the status must be documented for the
 * path, and a JSON reply must match that status's schema. Validators are compiled once per schema.
 */
export class ReplyConformance {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly templates: { key: string; pattern: RegExp }[];

  constructor(private readonly document: OpenApiLike) {
    this.ajv.addFormat('binary', true);
    this.ajv.addSchema({ $id: DOCUMENT_ID, components: document.components ?? {} });
    this.templates = Object.keys(document.paths)
      .filter((key) => key.includes('{'))
      .map((key) => ({ key, pattern: templatePattern(key) }));
  }

  /** The document's path of a request: the method's own path for call_pg_func, else the (templated) path. */
  pathOf(reply: Pick<ObservedReply, 'path' | 'method'>): string | null {
    if (reply.path === '/api/call_pg_func' && reply.method) {
      const own = `/api/call_pg_func#${reply.method}`;
      return own in this.document.paths ? own : null;
    }
    if (reply.path in this.document.paths) return reply.path;
    return this.templates.find((t) => t.pattern.test(reply.path))?.key ?? null;
  }

  /** What is wrong with the reply, or null when it matches the document. */
  check(reply: ObservedReply): string | null {
    const name = reply.method ? `${reply.path} ${reply.method}` : `${reply.httpMethod} ${reply.path}`;
    const key = this.pathOf(reply);
    if (!key) return `${name}: not in the document`;
    const operation = this.document.paths[key]?.[reply.httpMethod.toLowerCase()];
    if (!operation) return `${name}: ${reply.httpMethod} is not documented`;
    const response = this.resolve(operation.responses?.[String(reply.status)]);
    if (!response) return `${name}: status ${reply.status} is not documented`;
    const schema = response.content?.['application/json']?.schema;
    if (!schema) return `${name}: a JSON reply is not documented for status ${reply.status}`;
    const validate = this.validator(schema);
    if (validate(reply.body)) return null;
    const errors = (validate.errors ?? [])
      .slice(0, 5)
      .map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`)
      .join('; ');
    return `${name} (${reply.status}): ${errors}`;
  }

  private resolve(response: Response | undefined) {
    if (!response) return undefined;
    if (!isRef(response)) return response;
    const name = response.$ref.replace('#/components/responses/', '');
    const found = this.document.components?.responses?.[name];
    return found && !isRef(found) ? found : undefined;
  }

  private validator(schema: Ref | Record<string, unknown>): ValidateFunction {
    if (!isRef(schema)) throw new Error('a reply schema of the document is inline: give it a component id');
    let validate = this.validators.get(schema.$ref);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `${DOCUMENT_ID}${schema.$ref}` });
      this.validators.set(schema.$ref, validate);
    }
    return validate;
  }
}
