/**
 * EC2 refusals that no retry can change for a template, whose spec is immutable: the instance type
 * or image it names does not exist. They end the reconcile as terminal failures (the work queue
 * writes `ReconcileSucceeded=False` with EC2's message, CAPA records a Warning event); every other
 * cloud failure is thrown as it is, for the queue's retries with backoff.
 */

import { isCloudApiError, TerminalError } from '../../../../../shared/errors/index.js';

const REFUSALS: ReadonlySet<string> = new Set(['InvalidInstanceType', 'InvalidAMIID.Malformed']);

export async function refusedForGood<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (isCloudApiError(error) && REFUSALS.has(error.code)) throw new TerminalError(error.code, error.message, { cause: error });
    throw error;
  }
}
