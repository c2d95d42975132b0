/** The errors every WorkloadCluster implementation throws, typed transient or terminal. */

import { TerminalError, TransientError } from '../errors/index.js';

/**
 * The workload cluster cannot be reached yet: no `<cluster>-kubeconfig` Secret, connection refused,
 * a timeout, a 5xx. `reason` goes into the condition; retry with backoff.
 */
export class WorkloadClusterUnavailableError extends TransientError {
  readonly reason: 'KubeconfigNotFound' | 'KubeconfigInvalid' | 'ConnectionDown';
  constructor(reason: WorkloadClusterUnavailableError['reason'], message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'WorkloadClusterUnavailableError';
    this.reason = reason;
  }
}

/** The Node (or object) changed since it was read: read it again and retry. */
export class WorkloadClusterConflictError extends TransientError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'WorkloadClusterConflictError';
  }
}

/** The workload cluster refused capless's credentials (401/403): a retry will not help until someone fixes them. */
export class WorkloadClusterAccessDeniedError extends TerminalError {
  readonly code: number;
  constructor(code: number, message: string, options?: { cause?: unknown }) {
    super(code === 401 ? 'Unauthorized' : 'Forbidden', message, options);
    this.name = 'WorkloadClusterAccessDeniedError';
    this.code = code;
  }
}

export function isWorkloadClusterError(error: unknown): error is WorkloadClusterUnavailableError | WorkloadClusterAccessDeniedError {
  return error instanceof WorkloadClusterUnavailableError || error instanceof WorkloadClusterAccessDeniedError;
}
