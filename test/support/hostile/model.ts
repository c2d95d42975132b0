import fc from 'fast-check';
import type { ApiRequest } from '../../../functions/api/http.js';

/** Who sends a hostile request: the admin, a principal without any Secret permission, or nobody. */
export type Caller = 'admin' | 'restricted' | 'anonymous';

/**
 * A body built at send time from the object currently stored at the request's path: the stored
 * object with `overlay` laid over it (own keys, so `__proto__` stays a plain key) — a PUT that
 * carries the live resourceVersion reaches validation instead of stopping at the conflict check.
 */
export interface CurrentBody {
  overlay: Record<string, unknown>;
}

/** One generated request, plain data so fast-check can shrink and print it. */
export interface HostileRequest {
  /** The request class it was drawn from (reported on failure). */
  family: string;
  caller: Caller;
  method: string;
  /** The decoded path the handler sees in-process. */
  path: string;
  /** The path exactly as sent on the wire over HTTP (percent-encoding kept); default: `path` with each segment encoded. */
  wirePath?: string;
  /** Raw query string without `?`. */
  query: string;
  contentType?: string;
  body: string | CurrentBody;
  /** Overrides the caller's Authorization header (the bad-requests family sends broken ones). */
  authorization?: string;
  /**
   * Stricter than the common properties: the answer must be a 4xx; the body must carry no Secret
   * value even for the admin; a 2xx answer must be a watch stream (JSON lines of watch events).
   */
  expect?: { clientError?: boolean; noSecret?: boolean; watchStream?: boolean };
}

const SHOWN = 240;

function clip(text: string): string {
  return text.length <= SHOWN ? text : `${text.slice(0, SHOWN)}…(${text.length} chars)`;
}

/** A short readable line for a request: bodies of a megabyte must not flood the failure report. */
export function describeRequest(r: HostileRequest): string {
  const body = typeof r.body === 'string' ? clip(JSON.stringify(r.body)) : `<current object with ${clip(JSON.stringify(r.body.overlay))}>`;
  const path = clip(r.wirePath ?? r.path);
  return `[${r.family}] ${r.caller} ${r.method} ${path}${r.query ? `?${clip(r.query)}` : ''} (${r.contentType ?? 'no content-type'}) body=${body}`;
}

/** Builds a request and gives it the short description fast-check prints for counterexamples. */
export function hostile(request: HostileRequest): HostileRequest {
  Object.defineProperty(request, fc.toStringMethod, { value: () => describeRequest(request), enumerable: false });
  return request;
}

/** Tokens of the hostile API's principals. */
export interface Tokens {
  admin: string;
  restricted: string;
}

/** The transport-neutral request the handler takes; `bodyText` is the resolved body. */
export function toApiRequest(r: HostileRequest, tokens: Tokens, bodyText: string): ApiRequest {
  const headers: Record<string, string | undefined> = { accept: 'application/json' };
  if (r.caller !== 'anonymous') headers.authorization = `Bearer ${r.caller === 'admin' ? tokens.admin : tokens.restricted}`;
  if (r.authorization !== undefined) headers.authorization = r.authorization;
  if (r.contentType !== undefined) headers['content-type'] = r.contentType;
  return { method: r.method, path: r.path, query: new URLSearchParams(r.query), headers, body: bodyText };
}

/** Lays `overlay` over a copy of `base`, defining own properties (never through a setter such as `__proto__`). */
export function overlayOnto(base: unknown, overlay: unknown): unknown {
  if (!isPlainObject(overlay)) return overlay;
  const result: Record<string, unknown> = {};
  if (isPlainObject(base)) for (const key of Object.keys(base)) define(result, key, base[key]);
  for (const key of Object.keys(overlay)) define(result, key, overlayOnto(Object.hasOwn(result, key) ? result[key] : undefined, overlay[key]));
  return result;
}

function define(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
