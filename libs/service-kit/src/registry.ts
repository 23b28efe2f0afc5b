import {
  describeIssues,
  type FieldLabels,
  fail,
  MESSAGES,
  ok,
  ownerOfMethod,
  type Identity,
  type Owner,
  type Reply,
} from '@caravan/contracts';
import { createHash } from 'node:crypto';
import type { z } from 'zod';
import { assertAccess, type AccessRule } from './access';
import type { Db } from './db';
import { BusinessError, describeDbError, isTransientDbError } from './errors';
import type { Logger } from './logger';
import type { Outbox } from './bus/outbox';
import type { EntityStore } from './entity';

export type ProcedureContext = {
  identity: Identity;
  db: Db;
  log: Logger;
  requestId: string;
  outbox: Outbox;
  /** The caller's Idempotency-Key, when given: a money operation records it with its movements. */
  idempotencyKey?: string;
  /** With the key, to a procedure that keeps it itself (`keysItself`): the hash of the method and its params. */
  requestHash?: string;
};

export type Procedure<P = unknown, R = unknown> = {
  name: string;
  params: z.ZodType<P>;
  /** How a refusal of the params names them to the user (default: their names). */
  labels?: FieldLabels;
  access: AccessRule;
  /** Reads only: retried once inside when the database connection drops. Default: `_list`, `_get_by_id`, `_history`. */
  readOnly?: boolean;
  /**
   * The procedure keeps its Idempotency-Key itself, in the one statement that does its work (the
   * ledger's transfer): it runs outside a transaction of the key, with `idempotencyKey` and
   * `requestHash` in its context, and must answer as the registry would — a repeat moves nothing and
   * answers as the first did, the key with other params is refused (MESSAGES.idempotencyKeyReused), a
   * refusal keeps nothing.
   */
  keysItself?: boolean;
  handler(ctx: ProcedureContext, params: P): Promise<R>;
};

export type CallOutcome = { status: number; reply: Reply };

/** The header a caller sets once per user action, so a retried create or action runs once (docs/events.md). */
export const IDEMPOTENCY_HEADER = 'idempotency-key';
/** How long a key answers its first reply; older keys are pruned and a retry after that runs anew. */
export const IDEMPOTENCY_KEY_TTL_HOURS = 24;
const IDEMPOTENCY_KEY_FORMAT = /^[\x21-\x7e]{8,200}$/;

export const isIdempotencyKey = (key: string) => IDEMPOTENCY_KEY_FORMAT.test(key);

const READ_ONLY_NAME = /_(list|get_by_id|history)$/;
const RETRY_PAUSE_MS = 200;

/** Deletes the keys older than their time to live (run by the service every hour). */
export async function pruneIdempotencyKeys(db: Db) {
  await db('idempotency')
    .where('created_at', '<', db.raw(`now() - interval '${IDEMPOTENCY_KEY_TTL_HOURS} hours'`))
    .delete();
}

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

  /**
   * Runs a procedure. With an idempotency key the procedure runs in one transaction with the key's row
   * (`ctx.db` is that transaction; the procedure's own transactions become savepoints): a repeat of the
   * key answers the first reply and writes nothing, a concurrent repeat waits for the first to finish.
   * Only successful replies are kept: a refusal rolls the key back, so the corrected request may reuse it.
   * A procedure that `keysItself` does the same inside its own statement.
   */
  async call(
    ctx: ProcedureContext,
    method: string,
    rawParams: unknown,
    idempotencyKey?: string,
  ): Promise<CallOutcome> {
    const procedure = this.procedures.get(method);
    if (!procedure) return { status: 200, reply: fail(MESSAGES.unknownMethod(method)) };
    const parsed = procedure.params.safeParse(rawParams ?? {});
    if (!parsed.success)
      return { status: 200, reply: fail(describeIssues(parsed.error.issues, rawParams, procedure.labels)) };
    const params = parsed.data as never;
    const run = () => {
      if (idempotencyKey === undefined) return this.run(ctx, procedure, params);
      const hash = requestHash(method, rawParams);
      if (procedure.keysItself)
        return this.run({ ...ctx, idempotencyKey, requestHash: hash }, procedure, params);
      return this.runOnce(ctx, procedure, params, hash, idempotencyKey);
    };
    // a retry is safe for reads, and for writes under a key (the key's row commits with the write)
    const retrySafe = idempotencyKey !== undefined || (procedure.readOnly ?? READ_ONLY_NAME.test(method));
    try {
      return await run();
    } catch (error) {
      if (!retrySafe || !isTransientDbError(error)) return this.refusal(ctx, method, error);
      ctx.log.warn({ err: error, method }, 'database connection lost, retrying once');
      // a dropped connection rarely comes alone (a restart ends them all): let the pool see the others close
      await new Promise((resolve) => setTimeout(resolve, RETRY_PAUSE_MS));
      try {
        return await run();
      } catch (again) {
        return this.refusal(ctx, method, again);
      }
    }
  }

  private async run(ctx: ProcedureContext, procedure: Procedure<never, unknown>, params: never) {
    assertAccess(ctx.identity, procedure.access);
    return { status: 200, reply: ok(await procedure.handler(ctx, params)) };
  }

  private async runOnce(
    ctx: ProcedureContext,
    procedure: Procedure<never, unknown>,
    params: never,
    hash: string,
    key: string,
  ): Promise<CallOutcome> {
    const id = { user_id: ctx.identity.user_id, key };
    return ctx.db.transaction(async (trx) => {
      // waits while another request holding the same key is in flight, then sees its outcome
      const fresh = await trx('idempotency')
        .insert({ ...id, request_hash: hash })
        .onConflict(['user_id', 'key'])
        .ignore()
        .returning('key');
      if (!fresh.length) {
        const first = (await trx('idempotency').where(id).first('request_hash', 'reply')) as {
          request_hash: string;
          reply: string;
        };
        if (first.request_hash !== hash) return { status: 200, reply: fail(MESSAGES.idempotencyKeyReused) };
        return { status: 200, reply: JSON.parse(first.reply) as Reply };
      }
      const outcome = await this.run({ ...ctx, db: trx, idempotencyKey: key }, procedure, params);
      await trx('idempotency')
        .where(id)
        .update({ reply: JSON.stringify(outcome.reply) });
      return outcome;
    });
  }

  private refusal(ctx: ProcedureContext, method: string, error: unknown): CallOutcome {
    if (error instanceof BusinessError) return { status: 200, reply: fail(error.message) };
    const known = describeDbError(error);
    if (known) return { status: 200, reply: fail(known) };
    if (isTransientDbError(error)) {
      ctx.log.warn({ err: error, method }, 'database unavailable');
      return { status: 503, reply: fail(MESSAGES.serviceUnavailable) };
    }
    ctx.log.error({ err: error, method }, 'procedure failed');
    return { status: 500, reply: fail(MESSAGES.somethingWentWrong) };
  }
}

const requestHash = (method: string, params: unknown) =>
  createHash('sha256')
    .update(`${method}\n${JSON.stringify(params ?? {})}`)
    .digest('hex');
