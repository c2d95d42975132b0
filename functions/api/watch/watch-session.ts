import type { KindInfo } from '../../../shared/contracts/kinds.js';
import { groupOf, type StoredObject } from '../../../shared/contracts/object.js';
import { GoneError } from '../../../shared/errors/index.js';
import type { LabelSelectorTerm } from '../../../shared/ports/object-store.js';
import { matchesLabelSelector } from '../../../shared/store/label-selector.js';
import type { ChangeLog, LoggedChange } from '../../../shared/watch/change-log.js';
import type { ResponseStream, StreamSink } from '../http.js';
import { statusFromError } from '../status.js';

/** Which objects one watch sees. */
export interface WatchFilter {
  info: KindInfo;
  namespace?: string;
  name?: string;
  labelSelector?: LabelSelectorTerm[];
  /** The selectors can match no object (the watch only sends bookmarks). */
  matchesNothing?: boolean;
}

export interface WatchStart {
  /** Changes after this sequence number are sent. */
  afterSeq: number;
  /** Objects sent as ADDED before any change (the current state), when the client asked for them. */
  initial: StoredObject[];
  /** Close the initial events with a BOOKMARK annotated `k8s.io/initial-events-end` (sendInitialEvents=true). */
  initialEventsEndBookmark: boolean;
}

export interface SessionSettings {
  bookmarks: boolean;
  timeoutMs: number;
  /** Bytes queued for a client that is not reading before it is dropped. */
  maxPendingBytes: number;
  /** How the API shows an object of this kind in a watch event (storage version, Secret data removed; maybe a Table row). */
  present: (object: StoredObject) => unknown;
  /** Names the presentation: watches with the same one share serialized events. */
  presentation: string;
  onClose: (session: WatchSession) => void;
}

type EventType = LoggedChange['type'] | 'BOOKMARK' | 'ERROR';

const INITIAL_EVENTS_END = 'k8s.io/initial-events-end';

/** Serialized events shared by every watch that sends the same change with the same type and presentation. */
const lines = new WeakMap<LoggedChange, Map<string, string>>();

/**
 * One client's watch: filters the change log for its objects, sends each event as a JSON line,
 * and ends when the timeout passes, the client goes away, or the client stops reading for longer
 * than its queue allows (it is dropped rather than buffered without bound).
 */
export class WatchSession implements ResponseStream {
  private sink: StreamSink | undefined;
  private readonly pending: string[] = [];
  private pendingBytes = 0;
  private blocked = false;
  private closed = false;
  private lastSeq: number;
  private unsubscribe: (() => void) | undefined;
  private timer: NodeJS.Timeout | undefined;
  /** Why the session ended, for tests and logs. */
  endReason: 'timeout' | 'cancelled' | 'slow-client' | 'gone' | 'server-stopped' | undefined;

  constructor(
    private readonly log: ChangeLog,
    private readonly filter: WatchFilter,
    private readonly begin: WatchStart,
    private readonly settings: SessionSettings,
  ) {
    this.lastSeq = begin.afterSeq;
  }

  start(sink: StreamSink): void {
    if (this.closed) {
      sink.end();
      return;
    }
    this.sink = sink;
    for (const object of this.begin.initial) this.send(this.line('ADDED', this.settings.present(object)));
    const backlog = this.log.since(this.lastSeq);
    if ((backlog[0]?.seq ?? this.log.headSeq() + 1) > this.lastSeq + 1) {
      // The changes this watch needed were dropped from the log while it started.
      this.send(this.line('ERROR', statusFromError(new GoneError('too old resource version: the watch fell behind the retained history'))));
      this.close('gone');
      return;
    }
    for (const change of backlog) this.deliver(change);
    // Changes made while the initial state was read went out above, so the log's head is where this client now is.
    if (this.begin.initialEventsEndBookmark) this.bookmark(true);
    if (this.closed) return;
    this.unsubscribe = this.log.subscribe((change) => this.deliver(change));
    this.timer = setTimeout(() => this.close('timeout'), this.settings.timeoutMs);
    this.timer.unref();
  }

  drained(): void {
    this.blocked = false;
    while (!this.blocked && this.pending.length > 0 && this.sink) {
      const next = this.pending.shift() ?? '';
      this.pendingBytes -= next.length;
      this.blocked = !this.sink.write(next);
    }
  }

  cancel(): void {
    this.close('cancelled');
  }

  /** A BOOKMARK carrying the log's head (sent periodically when the client allows bookmarks). */
  bookmark(initialEventsEnd = false): void {
    if (this.closed || (!this.settings.bookmarks && !initialEventsEnd)) return;
    // Never skip past changes still queued for this client: its bookmark names what it has been sent.
    if (!initialEventsEnd && this.pending.length > 0) return;
    const resourceVersion = this.log.head();
    const metadata = { resourceVersion, ...(initialEventsEnd ? { annotations: { [INITIAL_EVENTS_END]: 'true' } } : {}) };
    const { group, kind, versions } = this.filter.info;
    const apiVersion = group ? `${group}/${versions[0] ?? ''}` : (versions[0] ?? 'v1');
    this.send(this.line('BOOKMARK', { kind, apiVersion, metadata }));
  }

  /** Ends the watch (the transport closes the response). */
  close(reason: NonNullable<WatchSession['endReason']>): void {
    if (this.closed) return;
    this.closed = true;
    this.endReason = reason;
    this.unsubscribe?.();
    if (this.timer) clearTimeout(this.timer);
    this.pending.length = 0;
    this.pendingBytes = 0;
    this.settings.onClose(this);
    if (reason !== 'cancelled') this.sink?.end();
  }

  private deliver(change: LoggedChange): void {
    if (this.closed || change.seq <= this.lastSeq) return;
    this.lastSeq = change.seq;
    const type = this.typeFor(change);
    if (type) this.send(this.changeLine(change, type));
  }

  /** The event type this watch sees for a change, or undefined when the change is not for it. */
  private typeFor(change: LoggedChange): LoggedChange['type'] | undefined {
    const { object, previous } = change;
    const { info, namespace, name, labelSelector, matchesNothing } = this.filter;
    if (matchesNothing) return undefined;
    if (object.kind !== info.kind || groupOf(object.apiVersion) !== info.group) return undefined;
    if (namespace !== undefined && object.metadata.namespace !== namespace) return undefined;
    if (name !== undefined && object.metadata.name !== name) return undefined;
    if (!labelSelector) return change.type;
    const now = matchesLabelSelector(object.metadata.labels, labelSelector);
    if (change.type !== 'MODIFIED' || !previous) return now ? change.type : undefined;
    const before = matchesLabelSelector(previous.metadata.labels, labelSelector);
    if (before && now) return 'MODIFIED';
    if (now) return 'ADDED';
    return before ? 'DELETED' : undefined;
  }

  private changeLine(change: LoggedChange, type: LoggedChange['type']): string {
    let byType = lines.get(change);
    if (!byType) {
      byType = new Map();
      lines.set(change, byType);
    }
    const key = `${type} ${this.settings.presentation}`;
    let line = byType.get(key);
    if (line === undefined) {
      line = this.line(type, this.settings.present(change.object));
      byType.set(key, line);
    }
    return line;
  }

  private line(type: EventType, object: unknown): string {
    return `${JSON.stringify({ type, object })}\n`;
  }

  private send(line: string): void {
    if (this.closed || !this.sink) return;
    if (!this.blocked) {
      this.blocked = !this.sink.write(line);
      return;
    }
    this.pending.push(line);
    this.pendingBytes += line.length;
    if (this.pendingBytes > this.settings.maxPendingBytes) this.close('slow-client');
  }
}
