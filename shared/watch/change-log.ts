/**
 * The recent history of the store's change feed, in the order the store reported it: what
 * Kubernetes watches are served from (ADR 0080). Every change gets a sequence number; its
 * object's resourceVersion names it, so a client that saw an event (or listed at a position)
 * can resume right after it. History is bounded by count and by bytes; a position older than
 * what is kept is "gone" and the client lists again, as with etcd's compaction.
 */

import { groupOf, type StoredObject } from '../contracts/object.js';
import { type Clock, systemClock } from '../ports/clock.js';
import type { ChangeSource, ObjectChange } from '../ports/object-store.js';
import { ObjectSizes } from '../store/object-sizes.js';
import { isResourceVersion, nextResourceVersion } from '../store/resource-version.js';
import type { ChangeJournal, JournalContents, JournalRecord } from './change-journal.js';

export interface LoggedChange extends JournalRecord {
  /** Approximate serialized size, what the byte budget counts. */
  bytes: number;
}

export interface ChangeLogOptions {
  /** Changes kept for resuming (default 10,000). */
  maxEntries?: number;
  /** Bytes of objects kept for resuming (default 64 MiB). */
  maxBytes?: number;
  clock?: Clock;
  /**
   * Keeps the history across restarts (ADR 0081): loaded at construction, every change appended,
   * compacted once as many changes as the log keeps have been appended since the last compaction.
   */
  journal?: ChangeJournal;
  /** The position the log starts at when no journal names one (default: a fresh resourceVersion). */
  origin?: string;
}

/** Where a watch starts, resolved from a resourceVersion. */
export type LogPosition = { kind: 'at'; seq: number } | { kind: 'gone'; oldest: string };

export class ChangeLog {
  private readonly entries: LoggedChange[] = [];
  private readonly seqByVersion = new Map<string, number>();
  private readonly listeners = new Set<(change: LoggedChange) => void>();
  private readonly maxEntries: number;
  private readonly maxBytes: number;
  private readonly clock: Clock;
  /**
   * Each object's last version's size, so a modification's previous version is not serialized a
   * second time. Bounded by objects, not entries: an object's previous version may be older than
   * the last maxEntries changes.
   */
  private readonly sizes = new ObjectSizes();
  /** The position of "nothing seen yet": what a list answers before any change. */
  private readonly origin: string;
  private readonly journal: ChangeJournal | undefined;
  private bytes = 0;
  private seq = 0;
  private evictedThrough = 0;
  private appendedSinceCompaction = 0;
  private readonly unsubscribe: () => void;

  constructor(source: ChangeSource, options: ChangeLogOptions = {}) {
    this.maxEntries = options.maxEntries ?? 10_000;
    this.maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
    this.clock = options.clock ?? systemClock;
    this.journal = options.journal;
    const kept = this.journal?.load();
    this.origin = kept?.origin ?? options.origin ?? nextResourceVersion(this.clock.now());
    if (kept) this.restore(kept);
    this.compact();
    this.unsubscribe = source.onChange((change) => this.append(this.entryFor(change)));
  }

  /** The resourceVersion of the newest change kept (a list's resourceVersion). */
  head(): string {
    const last = this.entries.at(-1);
    return last ? last.object.metadata.resourceVersion : this.origin;
  }

  /** The sequence number of the newest change (0 before any). */
  headSeq(): number {
    return this.seq;
  }

  /**
   * The position a resourceVersion names: right after the change that carried it. Undefined for
   * something that is not a resourceVersion at all (the caller answers 400).
   */
  positionOf(resourceVersion: string): LogPosition | undefined {
    if (!isResourceVersion(resourceVersion)) return undefined;
    const oldest = this.entries[0]?.object.metadata.resourceVersion ?? this.origin;
    if (resourceVersion === this.origin) return this.evictedThrough === 0 ? { kind: 'at', seq: 0 } : { kind: 'gone', oldest };
    const seq = this.seqByVersion.get(resourceVersion);
    return seq === undefined ? { kind: 'gone', oldest } : { kind: 'at', seq };
  }

  /** Changes after `seq`, oldest first. */
  since(seq: number): LoggedChange[] {
    const first = this.entries[0]?.seq ?? this.seq + 1;
    return this.entries.slice(Math.max(0, seq + 1 - first));
  }

  /** Every later change, as it is appended. */
  subscribe(listener: (change: LoggedChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Watchers currently subscribed. */
  subscribers(): number {
    return this.listeners.size;
  }

  /** The newest state of every object the retained history names (what a restart checks the store against). */
  lastKnown(): Map<string, LoggedChange> {
    const last = new Map<string, LoggedChange>();
    for (const entry of this.entries) last.set(identity(entry.object), entry);
    return last;
  }

  /**
   * Logs changes the store made while nothing was listening (a crash between a write and its
   * journal line), as a restart finds them: see recoverMissedChanges.
   */
  appendMissed(changes: readonly ObjectChange[]): void {
    for (const change of changes) this.append(this.entryFor(change));
  }

  /**
   * Changes whose resourceVersions were given elsewhere (the AWS watch log, ADR 0080), in order;
   * ones the log already holds are skipped, so overlapping reads of the same history are harmless.
   */
  appendRecorded(changes: readonly Omit<JournalRecord, 'seq'>[]): void {
    for (const change of changes) {
      if (this.seqByVersion.has(change.object.metadata.resourceVersion)) continue;
      const bytes = this.sizes.bytesOf(change.object) + (change.previous ? this.sizes.bytesOf(change.previous) : 0);
      this.append({ ...change, seq: ++this.seq, bytes });
    }
  }

  close(): void {
    this.unsubscribe();
    this.listeners.clear();
    this.journal?.close();
  }

  private append(entry: LoggedChange | undefined): void {
    if (!entry) return;
    this.add(entry);
    this.evict();
    if (this.journal) {
      const { bytes: _bytes, ...record } = entry;
      this.journal.append(record);
      if (++this.appendedSinceCompaction >= this.maxEntries) this.compact();
    }
    for (const listener of this.listeners) listener(entry);
  }

  private add(entry: LoggedChange): void {
    this.entries.push(entry);
    this.bytes += entry.bytes;
    this.seqByVersion.set(entry.object.metadata.resourceVersion, entry.seq);
  }

  private restore(kept: JournalContents): void {
    this.evictedThrough = kept.evictedThrough;
    this.seq = kept.evictedThrough;
    for (const record of kept.records) {
      this.add({ ...record, bytes: this.sizes.bytesOf(record.object) + (record.previous ? this.sizes.bytesOf(record.previous) : 0) });
      this.seq = record.seq;
    }
    this.evict();
    // Versions handed out from now on come after every one the journal names.
    nextResourceVersion(this.clock.now(), this.head());
  }

  private compact(): void {
    if (!this.journal) return;
    const records = this.entries.map(({ bytes: _bytes, ...record }) => record);
    this.journal.rewrite({ origin: this.origin, evictedThrough: this.evictedThrough, records });
    this.appendedSinceCompaction = 0;
  }

  private entryFor(change: ObjectChange): LoggedChange | undefined {
    if (change.type === 'REMOVE') {
      if (!change.oldObject) return undefined;
      // A removal is a change of its own: it gets a resourceVersion no earlier event carried.
      const version = nextResourceVersion(this.clock.now(), change.oldObject.metadata.resourceVersion);
      const object = { ...change.oldObject, metadata: { ...change.oldObject.metadata, resourceVersion: version } };
      return { seq: ++this.seq, type: 'DELETED', object, bytes: this.sizes.bytesOf(object) };
    }
    if (!change.newObject) return undefined;
    const type = change.type === 'INSERT' ? 'ADDED' : 'MODIFIED';
    const previous = change.type === 'MODIFY' ? change.oldObject : undefined;
    const bytes = this.sizes.bytesOf(change.newObject) + (previous ? this.sizes.bytesOf(previous) : 0);
    return { seq: ++this.seq, type, object: change.newObject, ...(previous ? { previous } : {}), bytes };
  }

  private evict(): void {
    while (this.entries.length > this.maxEntries || (this.bytes > this.maxBytes && this.entries.length > 1)) {
      const dropped = this.entries.shift();
      if (!dropped) return;
      this.bytes -= dropped.bytes;
      this.seqByVersion.delete(dropped.object.metadata.resourceVersion);
      this.evictedThrough = dropped.seq;
    }
  }
}

/** An object's identity across changes: its kind, namespace, name and uid. */
export function identity(object: StoredObject): string {
  return `${groupOf(object.apiVersion)}/${object.kind}/${object.metadata.namespace}/${object.metadata.name}/${object.metadata.uid}`;
}

