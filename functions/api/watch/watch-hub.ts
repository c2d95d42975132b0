import type { StoredObject } from '../../../shared/contracts/object.js';
import { BadRequestError, GoneError, TooManyRequestsError } from '../../../shared/errors/index.js';
import type { ListQuery, ObjectStore } from '../../../shared/ports/object-store.js';
import type { ChangeLog } from '../../../shared/watch/change-log.js';
import type { ApiResponse } from '../http.js';
import type { WatchOptions } from './watch-options.js';
import { type WatchFilter, WatchSession, type WatchStart } from './watch-session.js';

export interface WatchLimits {
  /** Longest a watch stays open; a larger timeoutSeconds is cut to this (default 1800 s, Kubernetes' minRequestTimeout). */
  maxTimeoutSeconds: number;
  /** Between periodic BOOKMARK events (default 30 s). */
  bookmarkIntervalMs: number;
  /** Bytes queued for a client that stops reading before it is dropped (default 1 MiB). */
  maxPendingBytes: number;
  /** Open watches at once; one more gets a 429 (default 10,000). */
  maxWatches: number;
}

export const DEFAULT_WATCH_LIMITS: WatchLimits = { maxTimeoutSeconds: 1800, bookmarkIntervalMs: 30_000, maxPendingBytes: 1024 * 1024, maxWatches: 10_000 };

/** What a watch request asks for, once the route has parsed it. */
export interface WatchRequest {
  filter: WatchFilter;
  /** The store query that reads the current state for initial events; absent when the selectors match nothing. */
  query?: ListQuery;
  options: WatchOptions;
  present: (object: StoredObject) => unknown;
  /** Names the presentation (`object`, `table:Metadata`…): watches with the same one share serialized events. */
  presentation: string;
}

/**
 * Serves Kubernetes watches from the change log (embedded mode; ADR 0080): resolves where each
 * watch starts, keeps the open sessions, and sends their periodic bookmarks from one timer.
 */
export class WatchHub {
  private readonly sessions = new Set<WatchSession>();
  private readonly limits: WatchLimits;
  private readonly ticker: NodeJS.Timeout;

  constructor(
    readonly log: ChangeLog,
    limits: Partial<WatchLimits> = {},
  ) {
    this.limits = { ...DEFAULT_WATCH_LIMITS, ...limits };
    this.ticker = setInterval(() => {
      for (const session of this.sessions) session.bookmark();
    }, this.limits.bookmarkIntervalMs);
    this.ticker.unref();
  }

  /** The position a list answers with: a watch from it sees every later change. */
  listResourceVersion(): string {
    return this.log.head();
  }

  async open(request: WatchRequest, store: ObjectStore): Promise<ApiResponse> {
    if (this.sessions.size >= this.limits.maxWatches) {
      throw new TooManyRequestsError(`too many open watches (${this.limits.maxWatches}); retry later`);
    }
    const begin = await this.startOf(request, store);
    const { options } = request;
    const requested = options.timeoutSeconds && options.timeoutSeconds > 0 ? options.timeoutSeconds : this.limits.maxTimeoutSeconds;
    const session = new WatchSession(this.log, request.filter, begin, {
      bookmarks: options.allowWatchBookmarks,
      timeoutMs: Math.min(requested, this.limits.maxTimeoutSeconds) * 1000,
      maxPendingBytes: this.limits.maxPendingBytes,
      present: request.present,
      presentation: request.presentation,
      onClose: (closed) => this.sessions.delete(closed),
    });
    this.sessions.add(session);
    return { status: 200, headers: { 'content-type': 'application/json', 'cache-control': 'no-cache' }, body: '', stream: session };
  }

  /** Open watches. */
  openWatches(): number {
    return this.sessions.size;
  }

  /** Ends every watch (the server is stopping). */
  close(): void {
    clearInterval(this.ticker);
    for (const session of [...this.sessions]) session.close('server-stopped');
  }

  private async startOf(request: WatchRequest, store: ObjectStore): Promise<WatchStart> {
    const { resourceVersion, sendInitialEvents } = request.options;
    const fromNow = resourceVersion === '' || resourceVersion === '0';
    const initial = sendInitialEvents ?? fromNow;
    if (initial || fromNow) {
      // The position is taken before the read, so nothing written meanwhile is lost (it may come twice).
      const afterSeq = this.log.headSeq();
      const items = initial && request.query ? await listAll(store, request.query) : [];
      return { afterSeq, initial: items, initialEventsEndBookmark: sendInitialEvents === true };
    }
    const position = this.log.positionOf(resourceVersion);
    if (!position) {
      throw new BadRequestError(`resourceVersion: invalid value ${JSON.stringify(resourceVersion.slice(0, 64))}: not a resourceVersion this server issued`, {
        causes: [{ field: 'resourceVersion', reason: 'FieldValueInvalid', message: 'must be a resourceVersion from a list or a watch event' }],
      });
    }
    if (position.kind === 'gone') {
      throw new GoneError(`too old resource version: ${resourceVersion} (${position.oldest})`);
    }
    return { afterSeq: position.seq, initial: [], initialEventsEndBookmark: false };
  }
}

async function listAll(store: ObjectStore, query: ListQuery): Promise<StoredObject[]> {
  const items: StoredObject[] = [];
  let token: string | undefined;
  do {
    const page = await store.list({ ...query, limit: 500, ...(token ? { continue: token } : {}) });
    items.push(...page.items);
    token = page.continue;
  } while (token);
  return items;
}
