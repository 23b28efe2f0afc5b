import type { Identity } from '@caravan/contracts';
import { IDENTITY_TTL_SECONDS, signIdentity, type Db } from '@caravan/service-kit';
import { hashToken, identityOf, type SessionUser, type Sessions } from './sessions';

/** What a request needs of its session: the user, the identity and the identity token signed for the services. */
export type ResolvedSession = {
  tokenHash: string;
  user: SessionUser;
  identity: Identity;
  /** The signed identity token; re-signed well before it expires. */
  signed: string;
};

type Entry = ResolvedSession & { cachedAt: number; signedAt: number; validUntil: number };

export type IdentityCacheOptions = {
  /** How long a cached identity is trusted without an invalidation event: the bound on staleness when Kafka is down. */
  ttlMs: number;
  maxEntries: number;
};

export const IDENTITY_CACHE_DEFAULTS: IdentityCacheOptions = { ttlMs: 10_000, maxEntries: 50_000 };
const RESIGN_AFTER_MS = (IDENTITY_TTL_SECONDS * 1000) / 3;

/**
 * The gateway's cache of live sessions (ARCHITECTURE §5), so a call costs no database round trip.
 * Correct with N gateways: every instance consumes the identity events (logout, user state or role
 * change, link change) and drops what they touch at once; without them (Kafka down) an entry is
 * trusted at most `ttlMs`. A lookup racing an invalidation is not cached (the epoch check).
 */
export class IdentityCache {
  private readonly entries = new Map<string, Entry>();
  private readonly pending = new Map<string, Promise<Entry | null>>();
  /** Bumped by every invalidation: a lookup that started before one must not fill the cache. */
  private epoch = 0;
  hits = 0;
  misses = 0;

  constructor(
    private readonly db: Db,
    private readonly sessions: Sessions,
    private readonly secret: string,
    private readonly options: IdentityCacheOptions = IDENTITY_CACHE_DEFAULTS,
  ) {}

  resolve(token: string | undefined): Promise<ResolvedSession | null> {
    if (!token || token.length > 200) return Promise.resolve(null);
    return this.resolveHash(hashToken(token));
  }

  async resolveHash(tokenHash: string): Promise<ResolvedSession | null> {
    const now = Date.now();
    const entry = this.entries.get(tokenHash);
    if (entry && now < entry.validUntil) {
      this.hits++;
      if (now - entry.signedAt > RESIGN_AFTER_MS) {
        entry.signed = signIdentity(entry.identity, this.secret);
        entry.signedAt = now;
      }
      return entry;
    }
    if (entry) this.entries.delete(tokenHash);
    this.misses++;
    let lookup = this.pending.get(tokenHash);
    if (!lookup) {
      lookup = this.load(tokenHash).finally(() => this.pending.delete(tokenHash));
      this.pending.set(tokenHash, lookup);
    }
    return lookup;
  }

  private async load(tokenHash: string): Promise<Entry | null> {
    const epoch = this.epoch;
    const user = await this.sessions.resolveHash(tokenHash);
    if (!user) return null;
    const identity = await identityOf(this.db, user);
    const now = Date.now();
    const entry: Entry = {
      tokenHash,
      user,
      identity,
      signed: signIdentity(identity, this.secret),
      cachedAt: now,
      signedAt: now,
      validUntil: Math.min(now + this.options.ttlMs, new Date(user.session_expires_at).getTime()),
    };
    if (epoch === this.epoch) this.store(entry);
    return entry;
  }

  private store(entry: Entry) {
    if (this.entries.size >= this.options.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(entry.tokenHash, entry);
  }

  dropSession(tokenHash: string) {
    this.epoch++;
    this.entries.delete(tokenHash);
  }

  dropUser(userId: number) {
    this.epoch++;
    for (const [hash, entry] of this.entries) if (entry.user.id === userId) this.entries.delete(hash);
  }

  /** A link changed: the identities it may alter are re-read (events.ts touchedByLink). */
  dropWhere(touched: (userId: number, identity: Identity) => boolean) {
    this.epoch++;
    for (const [hash, entry] of this.entries)
      if (touched(entry.user.id, entry.identity)) this.entries.delete(hash);
  }

  /** Every cached identity is re-read (after this instance's own write to users or links). */
  clear() {
    this.epoch++;
    this.entries.clear();
  }

  get size() {
    return this.entries.size;
  }
}
