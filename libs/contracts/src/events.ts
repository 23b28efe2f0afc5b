import { z } from 'zod';

/** Event type names. Every event travels in the same envelope (ARCHITECTURE §6). */
export const EVENT_TYPES = {
  entityChanged: 'entity.changed',
  sessionRevoked: 'session.revoked',
} as const;
export type EventType = (typeof EVENT_TYPES)[keyof typeof EVENT_TYPES];

export const EventEnvelope = z.object({
  id: z.uuid(),
  type: z.string().min(1),
  version: z.number().int().positive(),
  occurred_at: z.iso.datetime({ offset: true }),
  source: z.string().min(1),
  key: z.string().min(1),
  /** Per-key order: grows with every event of the same key (the producer's outbox sequence); older = stale. */
  seq: z.number().int().positive().optional(),
  actor: z.number().int().nullable(),
  data: z.unknown(),
});
export type EventEnvelope<D = unknown> = Omit<z.infer<typeof EventEnvelope>, 'data'> & { data: D };

/** The generic "entity changed" event: the whole row after the change, or its deletion flag. */
export const EntityChanged = z.object({
  entity: z.string().min(1),
  id: z.number().int(),
  op: z.enum(['created', 'updated', 'deleted', 'restored']),
  row: z.record(z.string(), z.unknown()),
  /**
   * An update's changed fields as they were before it (those the event shows of the row): a consumer
   * sees what moved (an order's stage from → to) without keeping a copy of every row.
   */
  prev: z.record(z.string(), z.unknown()).optional(),
});
export type EntityChanged = z.infer<typeof EntityChanged>;

/** A session ended (logout, password reset): gateways drop its cached identity and close its SSE streams. */
export const SessionRevoked = z.object({
  user_id: z.number().int(),
  /** SHA-256 of the session token; absent when every session of the user ended. */
  token_hash: z.string().optional(),
});
export type SessionRevoked = z.infer<typeof SessionRevoked>;
