import { groupKindString, keyString } from '../../../shared/contracts/object.js';
import { TerminalError } from '../../../shared/errors/index.js';
import type { ReconcileRequest } from '../../../shared/ports/work-queue.js';
import type { ReconcilerRegistry } from './registry.js';
import { runReconcile } from './skeleton/run-reconcile.js';
import type { ReconcileContext } from './skeleton/types.js';
import { ObservingStore } from './work/observing-store.js';
import { ReconcileReadCache } from './work/read-cache.js';
import {
  clearReconcileFailure,
  recordReconcileFailure,
  REASON_RETRIES_EXHAUSTED,
} from './work/reconcile-condition.js';
import type { RequestHandler, RequestOutcome } from '../../../shared/work/request-outcome.js';
import { backoffSeconds, DEFAULT_RETRY_POLICY, isFinalFailure, type RetryPolicy } from './work/retry-policy.js';

export interface ProcessDeps {
  registry: ReconcilerRegistry;
  /** The ports reconcilers see. Read on every call, so it may be completed after construction. */
  context: () => ReconcileContext;
  policy?: RetryPolicy;
}

/**
 * One try of one request, the same for every queue: run the kind's reconciler for the key and
 * decide what happens next — done, requeue after a delay, retry with exponential backoff, or
 * (after the last allowed failure, or at once for a TerminalError) record
 * ReconcileSucceeded=False on the object and stop. A success after a recorded failure flips the
 * condition back to True.
 */
export async function processRequest(
  request: ReconcileRequest,
  failures: number,
  deps: ProcessDeps,
): Promise<RequestOutcome> {
  const policy = deps.policy ?? DEFAULT_RETRY_POLICY;
  const ctx = deps.context();
  const definition = deps.registry.get(request);
  if (!definition) {
    ctx.logger.warn('no reconciler registered; request dropped', { kind: groupKindString(request) });
    return { type: 'done' };
  }
  const cache = new ReconcileReadCache(ctx.store);
  const store = new ObservingStore(cache, request);
  try {
    const result = await runReconcile(definition, { ...ctx, store }, request);
    const seen = store.lastSeen();
    if (seen) await clearReconcileFailure(ctx, seen);
    const after = result.requeueAfterSeconds;
    const read = cache.readVersions();
    const gone = result.gone ? { gone: true as const } : {};
    return after !== undefined && after > 0 ? { type: 'requeue', afterSeconds: after, read, ...gone } : { type: 'done', read, ...gone };
  } catch (error) {
    return failed(request, failures + 1, error, { ...deps, policy });
  }
}

async function failed(
  request: ReconcileRequest,
  failures: number,
  error: unknown,
  deps: ProcessDeps & { policy: RetryPolicy },
): Promise<RequestOutcome> {
  const ctx = deps.context();
  const message = error instanceof Error ? error.message : String(error);
  const fields = { key: keyString(request), failures, error: message };
  if (error instanceof TerminalError) {
    ctx.logger.error('reconcile failed terminally', fields);
    await recordQuietly(deps, request, error.reason, message);
    return { type: 'terminal', reason: error.reason, error: message };
  }
  if (isFinalFailure(deps.policy, failures)) {
    ctx.logger.error('reconcile failed; retries exhausted, dead-lettering', fields);
    await recordQuietly(deps, request, REASON_RETRIES_EXHAUSTED, `after ${failures} attempts: ${message}`);
    return { type: 'deadLetter', error: message };
  }
  ctx.logger.warn('reconcile failed; will retry', fields);
  return { type: 'retry', afterSeconds: backoffSeconds(deps.policy, failures), error: message };
}

/** The condition is best effort: a store that is down must not keep the request from the DLQ. */
async function recordQuietly(deps: ProcessDeps, request: ReconcileRequest, reason: string, message: string) {
  const ctx = deps.context();
  try {
    await recordReconcileFailure(ctx, request, reason, message);
  } catch (error) {
    ctx.logger.error('could not record the failure condition', {
      key: keyString(request),
      error: error instanceof Error ? error.message : String(error),
    });
  }
}

/** processRequest bound to its dependencies, in the shape the queues take. */
export function requestProcessor(deps: ProcessDeps): RequestHandler {
  return (request, failures) => processRequest(request, failures, deps);
}
