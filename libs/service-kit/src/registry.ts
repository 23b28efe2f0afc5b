import {
  describeIssues,
  fail,
  MESSAGES,
  ok,
  ownerOfMethod,
  type Identity,
  type Owner,
  type Reply,
} from '@caravan/contracts';
import type { z } from 'zod';
import { assertAccess, type AccessRule } from './access';
import type { Db } from './db';
import { BusinessError, describeDbError } from './errors';
import type { Logger } from './logger';
import type { Outbox } from './bus/outbox';
import type { EntityStore } from './entity';

export type ProcedureContext = {
  identity: Identity;
  db: Db;
  log: Logger;
  requestId: string;
  outbox: Outbox;
};

export type Procedure<P = unknown, R = unknown> = {
  name: string;
  params: z.ZodType<P>;
  access: AccessRule;
  handler(ctx: ProcedureContext, params: P): Promise<R>;
};

export type CallOutcome = { status: number; reply: Reply };

/**
 * The procedures a service answers through `call_pg_func`. A method is registered only by its owner
 * in the contracts routing table; params are validated by the procedure's zod schema.
 */
export class ProcedureRegistry {
  private readonly procedures = new Map<string, Procedure<never, unknown>>();
  /** The generic entities registered here, by name. */
  readonly entities = new Map<string, EntityStore>();

  constructor(private readonly owner: Owner) {}

  register<P, R>(procedure: Procedure<P, R>): this {
    const routedTo = ownerOfMethod(procedure.name);
    if (routedTo !== this.owner)
      throw new Error(`method ${procedure.name} is routed to ${routedTo ?? 'nobody'}, not to ${this.owner}`);
    if (this.procedures.has(procedure.name)) throw new Error(`method ${procedure.name} registered twice`);
    this.procedures.set(procedure.name, procedure as unknown as Procedure<never, unknown>);
    return this;
  }

  names(): string[] {
    return [...this.procedures.keys()].sort();
  }

  async call(ctx: ProcedureContext, method: string, rawParams: unknown): Promise<CallOutcome> {
    const procedure = this.procedures.get(method);
    if (!procedure) return { status: 200, reply: fail(MESSAGES.unknownMethod(method)) };
    const parsed = procedure.params.safeParse(rawParams ?? {});
    if (!parsed.success) return { status: 200, reply: fail(describeIssues(parsed.error.issues, rawParams)) };
    try {
      assertAccess(ctx.identity, procedure.access);
      const result = await procedure.handler(ctx, parsed.data as never);
      return { status: 200, reply: ok(result) };
    } catch (error) {
      if (error instanceof BusinessError) return { status: 200, reply: fail(error.message) };
      const known = describeDbError(error);
      if (known) return { status: 200, reply: fail(known) };
      ctx.log.error({ err: error, method }, 'procedure failed');
      return { status: 500, reply: fail(MESSAGES.somethingWentWrong) };
    }
  }
}
