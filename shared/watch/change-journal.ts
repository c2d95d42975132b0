/**
 * Where the change log keeps its history so watch positions outlive the process (ADR 0081): the
 * retained changes, appended as they happen and rewritten compactly now and then. The embedded
 * control plane keeps it as a file beside the store (local/file-change-journal.ts).
 */

import { isRecord } from '../contracts/json.js';
import type { StoredObject } from '../contracts/object.js';
import { isStoredObject } from '../store/stored-object.js';

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

/** One change as the journal keeps it. */
export interface JournalRecord {
  seq: number;
  type: WatchEventType;
  object: StoredObject;
  previous?: StoredObject;
}

/** Everything the journal holds: the log's starting point and the changes it still keeps. */
export interface JournalContents {
  /** The position of "nothing seen yet" the log began with. */
  origin: string;
  /** The sequence number of the newest change dropped from the history (0 when none was). */
  evictedThrough: number;
  /** Retained changes, oldest first. */
  records: JournalRecord[];
}

export interface ChangeJournal {
  /** What an earlier process left, or undefined when there is nothing (or nothing usable). */
  load(): JournalContents | undefined;
  /** Records one change; synchronous, so it is written before any watcher hears of it. */
  append(record: JournalRecord): void;
  /** Replaces everything with `contents` (compaction); atomic: a crash leaves the old or the new. */
  rewrite(contents: JournalContents): void;
  close(): void;
}

const EVENT_TYPES: readonly string[] = ['ADDED', 'MODIFIED', 'DELETED'];

/** A journal record parsed from untrusted JSON, or undefined when it is not one. */
export function parseJournalRecord(value: unknown): JournalRecord | undefined {
  if (!isRecord(value) || typeof value.seq !== 'number' || !Number.isSafeInteger(value.seq) || value.seq < 1) return undefined;
  const type = EVENT_TYPES.find((known) => known === value.type);
  if (type !== 'ADDED' && type !== 'MODIFIED' && type !== 'DELETED') return undefined;
  if (!isStoredObject(value.object)) return undefined;
  if (value.previous !== undefined && !isStoredObject(value.previous)) return undefined;
  return { seq: value.seq, type, object: value.object, ...(value.previous ? { previous: value.previous } : {}) };
}
