import { numberAt, stringAt } from '../../shared/contracts/json.js';

/** A non-2xx answer from the API, carrying its Kubernetes `Status`. */
export class ApiStatusError extends Error {
  override readonly name = 'ApiStatusError';
  constructor(
    readonly code: number,
    readonly reason: string,
    message: string,
    readonly status: unknown,
  ) {
    super(message);
  }

  static fromResponse(httpStatus: number, body: unknown, fallbackText: string): ApiStatusError {
    const code = numberAt(body, 'code') ?? httpStatus;
    const reason = stringAt(body, 'reason') || reasonOf(httpStatus);
    const message = stringAt(body, 'message') || fallbackText || `HTTP ${httpStatus}`;
    return new ApiStatusError(code, reason, message, body);
  }
}

function reasonOf(status: number): string {
  const reasons: Record<number, string> = { 400: 'BadRequest', 401: 'Unauthorized', 403: 'Forbidden', 404: 'NotFound', 409: 'Conflict', 422: 'Invalid' };
  return reasons[status] ?? (status >= 500 ? 'InternalError' : 'Unknown');
}

export function isNotFoundStatus(error: unknown): boolean {
  return error instanceof ApiStatusError && error.code === 404;
}

export function isAlreadyExistsStatus(error: unknown): boolean {
  return error instanceof ApiStatusError && error.code === 409 && error.reason === 'AlreadyExists';
}

export function isConflictStatus(error: unknown): boolean {
  return error instanceof ApiStatusError && error.code === 409 && error.reason === 'Conflict';
}
