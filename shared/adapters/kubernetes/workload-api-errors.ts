/**
 * How a failed call to a workload cluster's API becomes one of the port's typed errors:
 * 401/403 → access denied (terminal until the credentials change); 429, 5xx, connection refused,
 * reset, TLS failures, timeouts → unavailable (transient); anything else (400, 404, 409, 422 …,
 * or a kind the cluster does not serve) is the caller's to judge and is returned as `undefined`.
 */
import { ApiException } from '@kubernetes/client-node';
import { isRecord } from '../../contracts/json.js';
import { WorkloadClusterAccessDeniedError, WorkloadClusterUnavailableError } from '../../ports/workload-cluster.js';

export type WorkloadApiError = WorkloadClusterAccessDeniedError | WorkloadClusterUnavailableError;

export function classifyWorkloadApiError(error: unknown, what: string): WorkloadApiError | undefined {
  if (error instanceof WorkloadClusterUnavailableError || error instanceof WorkloadClusterAccessDeniedError) return error;
  if (error instanceof ApiException) {
    const code = error.code;
    if (code === 401 || code === 403) return new WorkloadClusterAccessDeniedError(code, `${what}: the workload API answered ${code} ${statusMessage(error.body)}`.trim(), { cause: error });
    if (code === 429 || code >= 500) return new WorkloadClusterUnavailableError('ConnectionDown', `${what}: the workload API answered ${code}`, { cause: error });
    return undefined;
  }
  // Not an HTTP answer at all: refused, reset, DNS, TLS, aborted.
  if (isNetworkError(error)) return new WorkloadClusterUnavailableError('ConnectionDown', `${what}: ${errorMessage(error)}`, { cause: error });
  return undefined;
}

/** node-fetch's FetchError (type `system`, with the socket's errno code) or an aborted request. */
function isNetworkError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return error.name === 'FetchError' || error.name === 'AbortError' || (isRecord(error) && typeof error.code === 'string');
}

/** The `message` of a Kubernetes Status body (a string or parsed JSON, as client-node leaves it). */
export function statusMessage(body: unknown): string {
  const parsed = statusBody(body);
  return isRecord(parsed) && typeof parsed.message === 'string' ? parsed.message : '';
}

/** A Status body as client-node leaves it (a string or parsed JSON), parsed. */
export function statusBody(body: unknown): unknown {
  return typeof body === 'string' ? safeParse(body) : body;
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function errorMessage(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = isRecord(error) && typeof error.code === 'string' ? `${error.code} ` : '';
  return `${code}${error.message}`;
}
