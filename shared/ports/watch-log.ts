import type { GroupKind } from '../contracts/object.js';
import type { WatchLogRecord } from '../watch/watch-log-record.js';

/**
 * The change history watches are served from on AWS (ADR 0080): one record per change, per kind,
 * ordered by resourceVersion, kept for a bounded time. Written by the stream router, read by the
 * watch function.
 */
export interface WatchLog {
  /** Records changes; writing the same record twice leaves one. */
  append(records: readonly WatchLogRecord[]): Promise<void>;
  /** Records of a kind with a resourceVersion greater than `after`, oldest first, at most `limit`. */
  since(kind: GroupKind, after: string, limit: number): Promise<WatchLogRecord[]>;
}
