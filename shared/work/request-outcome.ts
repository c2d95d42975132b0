import type { ReconcileRequest } from '../ports/work-queue.js';
import type { ReadVersions } from './read-versions.js';

/** What the queue must do after one try of a request. Decided once, in processRequest. */
export type RequestOutcome =
  /**
   * Reconciled; nothing more unless something changes. `read`: what it read (ReadVersions);
   * `gone`: the object was not in the store when the run ended (never found, or its last
   * finalizer removed).
   */
  | { type: 'done'; read?: ReadVersions; gone?: true }
  /** Reconciled; run again after this delay (any length). */
  | { type: 'requeue'; afterSeconds: number; read?: ReadVersions; gone?: true }
  /** Failed; try again after this backoff. */
  | { type: 'retry'; afterSeconds: number; error: string }
  /** Failed for the last allowed time; the object carries the failure condition. */
  | { type: 'deadLetter'; error: string }
  /** A TerminalError: no retries; the object carries the failure condition. */
  | { type: 'terminal'; reason: string; error: string };

/**
 * One try of a request. `failures` counts the earlier failed tries of this same request
 * (0 on a fresh request); queues keep that count (in-process: a map; SQS: ApproximateReceiveCount − 1).
 */
export type RequestHandler = (request: ReconcileRequest, failures: number) => Promise<RequestOutcome>;
