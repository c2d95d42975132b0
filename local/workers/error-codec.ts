import {
  AlreadyExistsError,
  ApiError,
  BadRequestError,
  ConflictError,
  ForbiddenError,
  GoneError,
  InvalidError,
  NotFoundError,
  TerminalError,
  TooLargeError,
  TooManyRequestsError,
  TransientError,
  UnavailableError,
} from '../../shared/errors/index.js';
import type { SerializedError } from './protocol.js';

type ApiErrorClass = new (message: string, options?: { causes?: ApiError['causes']; details?: ApiError['details'] }) => ApiError;

/** The store's typed errors: reconcilers tell them apart with instanceof (a conflict is retried, a NotFound ends a wait). */
const API_ERRORS: Readonly<Record<string, ApiErrorClass>> = {
  AlreadyExistsError,
  BadRequestError,
  ConflictError,
  ForbiddenError,
  GoneError,
  InvalidError,
  NotFoundError,
  TooLargeError,
  TooManyRequestsError,
  UnavailableError,
};

export function serializeError(error: unknown): SerializedError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  const out: SerializedError = { name: error.name, message: error.message };
  if (error instanceof TerminalError) out.reason = error.reason;
  if (error instanceof ApiError) {
    out.causes = error.causes;
    out.details = error.details;
  }
  return out;
}

/** The same class on this side of the thread, so `instanceof` checks behave as in one process. */
export function deserializeError(e: SerializedError): Error {
  const apiClass = API_ERRORS[e.name];
  if (apiClass) return new apiClass(e.message, { ...(e.causes ? { causes: e.causes } : {}), ...(e.details ? { details: e.details } : {}) });
  if (e.name === 'TransientError') return new TransientError(e.message);
  if (e.name === 'TerminalError') return new TerminalError(e.reason ?? 'Terminal', e.message);
  const error = new Error(e.message);
  error.name = e.name;
  return error;
}
