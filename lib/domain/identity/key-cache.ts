import Redis from "ioredis";
import postgres from "postgres";
import { config } from "@/lib/foundation/config";
import { forgetAccount, forgetSession, SESSION_ENDED_PREFIX } from "@/lib/domain/identity/principal-cache";
import { hashApiKey } from "./api-key-secret";

/**
 * Verified API keys, cached in the process so the key path costs what the
 * access-token path costs (bench/README.md), with revocation still taking effect
 * on the next request everywhere:
 *
 * - A revocation is broadcast: PostgreSQL NOTIFY on REVOKED_CHANNEL (sent by the
 *   revoking transaction, so it goes out at its commit), or Redis pub/sub when
 *   REDIS_URL is set. Every process drops the key on the message and answers on
 *   ACK_CHANNEL; the revoking request answers only once every listening process
 *   has acknowledged (or after ACK_TIMEOUT_MS, for a process that died without
 *   closing its connection). So the next request, wherever it lands, is refused.
 *   With PGlite there is one process (the data-folder lock): forgetting the key
 *   here is the whole broadcast.
 * - The cache serves only while its subscription is live. Before the first
 *   LISTEN/SUBSCRIBE succeeds and while the connection is down, every request
 *   looks the key up; on every (re)connection the cache is emptied, so messages
 *   missed during an outage cannot leave a revoked key cached.
 * - Entries live at most TTL_MS (a backstop, not the mechanism).
 * - Only successful lookups are cached: an unknown key is looked up again on the
 *   next request, so a key created a moment ago is never refused. A lookup that
 *   raced a revocation (a message arrived while its query ran) is not cached.
 */
export const REVOKED_CHANNEL = "api_key_revoked";
export const ACK_CHANNEL = "api_key_revoked_ack";
/**
 * The same feed carries "account:<id>" when an account's sessions end (password
 * reset or change, lib/domain/identity/end-sessions.ts): every process drops its cached row
 * of that account, so the next request re-reads the credentials version.
 */
export const SESSIONS_ENDED_PREFIX = "account:";
/** application_name of the listening connections: how a revoker counts the processes to wait for. */
export const LISTENER_APP_NAME = "print-studio-api-key-listener";
const TTL_MS = 60_000;
const ACK_TIMEOUT_MS = 2_000;
const MAX_ENTRIES = 10_000;

export type CachedKey = { keyId: string; accountId: string; createdBy: string | null; lastUsedAt: number; until: number };

type Handlers = { onRevoked: (keyHash: string) => void; onAck: (keyHash: string) => void; onLive: (live: boolean) => void };

/** Where revocations come from and go to. */
export type RevocationFeed = {
  kind: "memory" | "postgres" | "redis";
  /** Subscribes (and keeps subscribing after drops); reports liveness through onLive. */
  start(handlers: Handlers): Promise<void>;
  /** Tells every process (PostgreSQL's NOTIFY was already sent by the revoking transaction); resolves to how many will acknowledge. */
  publish(keyHash: string): Promise<number>;
  /** This process has dropped the key. */
  ack(keyHash: string): Promise<void>;
  stop(): Promise<void>;
};

export class ApiKeyCache {
  private entries = new Map<string, CachedKey>();
  private hashes = new Map<string, string>();
  private live = false;
  private started: Promise<void> | undefined;
  /** Bumped on every revocation and reconnection: a lookup that saw it change is not cached. */
  private generation = 0;
  /** Acknowledgements per key hash (kept 10 s: some arrive before the revoker starts counting). */
  private acks = new Map<string, { n: number; at: number; wake?: () => void }>();

  constructor(
    readonly feed: RevocationFeed,
    private readonly ttlMs = TTL_MS,
  ) {}

  /** Starts the subscription once; the cache stays bypassed until it is live. */
  start(): Promise<void> {
    this.started ??= this.feed
      .start({
        onRevoked: (hash) => {
          if (hash.startsWith(SESSIONS_ENDED_PREFIX)) forgetAccount(hash.slice(SESSIONS_ENDED_PREFIX.length));
          if (hash.startsWith(SESSION_ENDED_PREFIX)) forgetSession(hash.slice(SESSION_ENDED_PREFIX.length));
          this.forget(hash);
          this.feed.ack(hash).catch(() => {});
        },
        onAck: (hash) => this.acked(hash),
        onLive: (live) => {
          this.entries.clear();
          this.generation++;
          this.live = live;
        },
      })
      .catch((err: Error) => console.warn(`[api-keys] revocation feed (${this.feed.kind}) failed to start: ${err.message}; keys are looked up on every request`));
    return this.started;
  }

  get isLive(): boolean {
    return this.live;
  }

  get size(): number {
    return this.entries.size;
  }

  /** A fresh entry, only while the feed is live. */
  get(keyHash: string): CachedKey | undefined {
    if (!this.live) {
      void this.start();
      return undefined;
    }
    const hit = this.entries.get(keyHash);
    if (!hit) return undefined;
    if (hit.until > Date.now()) return hit;
    this.entries.delete(keyHash);
    return undefined;
  }

  /** Take before the lookup; pass to `remember` after it. */
  ticket(): number {
    return this.generation;
  }

  /**
   * The key's SHA-256, from memory for keys that verified before (hashing is
   * most of what a cached lookup would otherwise cost). Unknown keys are hashed
   * every time and never remembered.
   */
  hashOf(key: string): string {
    return this.hashes.get(key) ?? hashApiKey(key);
  }

  remember(keyHash: string, entry: Omit<CachedKey, "until">, ticket: number, key?: string): void {
    if (!this.live || ticket !== this.generation) return;
    if (key !== undefined) {
      this.hashes.set(key, keyHash);
      if (this.hashes.size > MAX_ENTRIES) this.hashes.delete(this.hashes.keys().next().value!);
    }
    this.entries.delete(keyHash);
    this.entries.set(keyHash, { ...entry, until: Date.now() + this.ttlMs });
    if (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
  }

  forget(keyHash: string): void {
    this.entries.delete(keyHash);
    this.generation++;
  }

  /**
   * After this process revoked a key (committed): drop it here, tell the others,
   * and return once every listening process has dropped it.
   */
  async revoked(keyHash: string): Promise<void> {
    this.forget(keyHash);
    if (this.feed.kind === "memory") return;
    // This process may not have used a key yet: its subscription (which also carries the acknowledgements) starts now.
    await this.start();
    await this.untilLive(ACK_TIMEOUT_MS);
    const expected = await this.feed.publish(keyHash);
    await this.acknowledged(keyHash, expected);
  }

  private async untilLive(ms: number): Promise<void> {
    const end = Date.now() + ms;
    while (!this.live && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
  }

  private acked(keyHash: string) {
    const now = Date.now();
    for (const [hash, a] of this.acks) if (now - a.at > 10_000 && !a.wake) this.acks.delete(hash);
    const a = this.acks.get(keyHash) ?? { n: 0, at: now };
    a.n++;
    this.acks.set(keyHash, a);
    a.wake?.();
  }

  private acknowledged(keyHash: string, expected: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const a = this.acks.get(keyHash) ?? { n: 0, at: Date.now() };
      this.acks.set(keyHash, a);
      const done = () => {
        clearTimeout(timer);
        this.acks.delete(keyHash);
        resolve();
      };
      const timer = setTimeout(done, ACK_TIMEOUT_MS);
      a.wake = () => {
        if (a.n >= expected) done();
      };
      a.wake();
    });
  }

  async stop(): Promise<void> {
    this.live = false;
    this.entries.clear();
    this.hashes.clear();
    await this.feed.stop();
  }
}

/** PGlite: one process, so the revoking process forgetting the key is the whole broadcast. */
export function memoryFeed(): RevocationFeed {
  return {
    kind: "memory",
    async start({ onLive }) {
      onLive(true);
    },
    async publish() {
      return 0;
    },
    async ack() {},
    async stop() {},
  };
}

/** LISTEN on a dedicated connection; LISTENs again after a drop (cache bypassed meanwhile, emptied on return). */
export function postgresFeed(url: string): RevocationFeed {
  let sql: postgres.Sql | undefined;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  let delay = 200;
  return {
    kind: "postgres",
    async start({ onRevoked, onAck, onLive }) {
      const listen = () => {
        retry = undefined;
        Promise.all([sql!.unsafe(`listen ${REVOKED_CHANNEL}`), sql!.unsafe(`listen ${ACK_CHANNEL}`)]).then(
          () => {
            delay = 200;
            onLive(true);
          },
          () => again(),
        );
      };
      const again = () => {
        if (stopped || retry) return;
        retry = setTimeout(listen, delay);
        retry.unref();
        delay = Math.min(delay * 2, 10_000);
      };
      sql = postgres(url, {
        max: 1,
        idle_timeout: 0,
        max_lifetime: null,
        fetch_types: false,
        connection: { application_name: LISTENER_APP_NAME },
        onnotice: () => {},
        // postgres.js delivers every NOTIFY on this connection here (not in its typings).
        onnotify: (channel: string, payload: string) => {
          if (channel === REVOKED_CHANNEL) onRevoked(payload);
          else if (channel === ACK_CHANNEL) onAck(payload);
        },
        onclose: () => {
          onLive(false);
          again();
        },
      } as postgres.Options<Record<string, never>>);
      listen();
    },
    // The revoking transaction ran pg_notify (delivered at its commit); count who will acknowledge.
    async publish() {
      if (!sql) return 0;
      const [row] = await sql<{ n: number }[]>`
        select count(*)::int as n from pg_stat_activity
        where application_name = ${LISTENER_APP_NAME} and datname = current_database()`;
      return row?.n ?? 0;
    },
    async ack(keyHash) {
      if (sql) await sql`select pg_notify(${ACK_CHANNEL}, ${keyHash})`;
    },
    async stop() {
      stopped = true;
      clearTimeout(retry);
      await sql?.end({ timeout: 2 });
    },
  };
}

/** Redis pub/sub: a subscriber connection (subscribing again after every reconnection) and a publisher. */
export function redisFeed(url: string): RevocationFeed {
  let sub: Redis | undefined;
  let pub: Redis | undefined;
  return {
    kind: "redis",
    async start({ onRevoked, onAck, onLive }) {
      // ioredis keeps reconnecting in the background; the cache is live only while subscribed.
      sub = new Redis(url, { lazyConnect: true, autoResubscribe: false, maxRetriesPerRequest: 1 });
      pub = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
      sub.on("error", () => {});
      pub.on("error", () => {});
      sub.on("message", (channel: string, message: string) => {
        if (channel === REVOKED_CHANNEL) onRevoked(message);
        else if (channel === ACK_CHANNEL) onAck(message);
      });
      sub.on("close", () => onLive(false));
      sub.on("ready", () => {
        sub!.subscribe(REVOKED_CHANNEL, ACK_CHANNEL).then(
          () => onLive(true),
          () => onLive(false),
        );
      });
      sub.connect().catch(() => {});
      pub.connect().catch(() => {});
    },
    // PUBLISH answers with the number of subscribers that received the message.
    async publish(keyHash) {
      return pub!.publish(REVOKED_CHANNEL, keyHash);
    },
    async ack(keyHash) {
      await pub?.publish(ACK_CHANNEL, keyHash);
    },
    async stop() {
      sub?.disconnect();
      pub?.disconnect();
    },
  };
}

/** The feed this deployment uses: Redis when configured, else PostgreSQL LISTEN/NOTIFY, else in-process (PGlite). */
export function configuredFeed(): RevocationFeed {
  const { REDIS_URL, DATABASE_URL } = config();
  if (DATABASE_URL && REDIS_URL) return redisFeed(REDIS_URL);
  if (DATABASE_URL) return postgresFeed(DATABASE_URL);
  return memoryFeed();
}

const holder = globalThis as unknown as { __printStudioApiKeyCache?: ApiKeyCache };

/** The process's cache (one per process, shared by every route bundle). */
export function processKeyCache(): ApiKeyCache {
  holder.__printStudioApiKeyCache ??= new ApiKeyCache(configuredFeed());
  return holder.__printStudioApiKeyCache;
}

/** Tests: stop and forget the process cache (as a new process would). */
export async function resetProcessKeyCache(): Promise<void> {
  const cache = holder.__printStudioApiKeyCache;
  holder.__printStudioApiKeyCache = undefined;
  await cache?.stop();
}
