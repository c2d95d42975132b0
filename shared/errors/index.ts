/**
 * Error families. Store and admission errors carry what the API needs to answer with a
 * Kubernetes `Status`; reconcile errors say whether a retry can help.
 */

export interface StatusCause {
  field?: string;
  reason?: string;
  message: string;
}

/** Kubernetes `Status` reasons used by capless. */
export type StatusReason =
  | 'BadRequest'
  | 'Unauthorized'
  | 'Forbidden'
  | 'NotFound'
  | 'AlreadyExists'
  | 'Conflict'
  | 'RequestEntityTooLarge'
  | 'UnsupportedMediaType'
  | 'Invalid'
  | 'MethodNotAllowed'
  | 'NotAcceptable'
  | 'Expired'
  | 'TooManyRequests'
  | 'InternalError'
  | 'ServiceUnavailable';

/** Base of every error that maps to an API response. */
export abstract class ApiError extends Error {
  abstract readonly code: number;
  abstract readonly reason: StatusReason;
  readonly causes: StatusCause[];
  readonly details: { group?: string; kind?: string; name?: string };

  constructor(
    message: string,
    options: { causes?: StatusCause[]; details?: ApiError['details']; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.causes = options.causes ?? [];
    this.details = options.details ?? {};
  }
}

export class BadRequestError extends ApiError {
  readonly code = 400;
  readonly reason = 'BadRequest' as const;
}
export class UnauthorizedError extends ApiError {
  readonly code = 401;
  readonly reason = 'Unauthorized' as const;
}
export class ForbiddenError extends ApiError {
  readonly code = 403;
  readonly reason = 'Forbidden' as const;
}
export class NotFoundError extends ApiError {
  readonly code = 404;
  readonly reason = 'NotFound' as const;
}
export class MethodNotAllowedError extends ApiError {
  readonly code = 405;
  readonly reason = 'MethodNotAllowed' as const;
}
/** An Accept header naming no representation the server can produce. */
export class NotAcceptableError extends ApiError {
  readonly code = 406;
  readonly reason = 'NotAcceptable' as const;
}
/** A watch from a resourceVersion the server no longer (or never) retained: the client must list again. */
export class GoneError extends ApiError {
  readonly code = 410;
  readonly reason = 'Expired' as const;
}
/** A limit on concurrent work (open watches) is reached: retry later. */
export class TooManyRequestsError extends ApiError {
  readonly code = 429;
  readonly reason = 'TooManyRequests' as const;
}
export class AlreadyExistsError extends ApiError {
  readonly code = 409;
  readonly reason = 'AlreadyExists' as const;
}
/** A write whose resourceVersion is stale, or a precondition that no longer holds. */
export class ConflictError extends ApiError {
  readonly code = 409;
  readonly reason = 'Conflict' as const;
}
export class TooLargeError extends ApiError {
  readonly code = 413;
  readonly reason = 'RequestEntityTooLarge' as const;
}
export class UnsupportedMediaTypeError extends ApiError {
  readonly code = 415;
  readonly reason = 'UnsupportedMediaType' as const;
}
/** Schema or admission failure; `causes[].field` names the field at fault. */
export class InvalidError extends ApiError {
  readonly code = 422;
  readonly reason = 'Invalid' as const;
}
export class UnavailableError extends ApiError {
  readonly code = 503;
  readonly reason = 'ServiceUnavailable' as const;
}

/** Reconcile failures: retry with backoff. */
export class TransientError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'TransientError';
  }
}

/** Reconcile failures a retry cannot fix: record a condition and stop retrying. */
export class TerminalError extends Error {
  readonly reason: string;
  constructor(reason: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'TerminalError';
    this.reason = reason;
  }
}

export function isConflict(error: unknown): error is ConflictError {
  return error instanceof ConflictError;
}

export function isNotFound(error: unknown): error is NotFoundError {
  return error instanceof NotFoundError;
}

export function isAlreadyExists(error: unknown): error is AlreadyExistsError {
  return error instanceof AlreadyExistsError;
}

/**
 * A cloud API refused or failed a call. `code` is the provider's error code
 * (`RequestLimitExceeded`, `InvalidAMIID.Malformed`, …); `throttled` and `eventuallyConsistent`
 * say why a retry can help. Reconcilers put the code in a condition and requeue with backoff.
 */
export class CloudApiError extends Error {
  readonly code: string;
  readonly operation: string;
  constructor(operation: string, code: string, message: string, options?: { cause?: unknown }) {
    super(`${operation}: ${code}: ${message}`, options);
    this.name = 'CloudApiError';
    this.code = code;
    this.operation = operation;
  }

  get throttled(): boolean {
    return ['RequestLimitExceeded', 'Throttling', 'ThrottlingException', 'TooManyRequestsException'].includes(this.code);
  }

  /** `InvalidInstanceID.NotFound` right after RunInstances and the like: the read is not yet consistent. */
  get eventuallyConsistent(): boolean {
    return this.code.endsWith('.NotFound') || this.code === 'DependencyViolation';
  }
}

export function isCloudApiError(error: unknown): error is CloudApiError {
  return error instanceof CloudApiError;
}
