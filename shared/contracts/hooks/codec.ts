/**
 * One place that decodes and encodes hook bodies, for the client (capless calling extensions)
 * and the server (extensions capless hosts) alike.
 */

import type { z } from 'zod';
import { HOOKS_API_VERSION, type HookName, isRetryHook, responseKind, requestKind } from './catalog.js';
import { discoveryRequestSchema, discoveryResponseSchema } from './discovery.js';
import { LIFECYCLE_REQUEST_SCHEMAS, plainResponseSchema, retryResponseSchema } from './lifecycle.js';
import {
  discoverVariablesRequestSchema,
  discoverVariablesResponseSchema,
  generatePatchesRequestSchema,
  generatePatchesResponseSchema,
  validateTopologyRequestSchema,
  validateTopologyResponseSchema,
} from './topology-mutation.js';

const REQUEST_SCHEMAS: Record<HookName, z.ZodType> = {
  Discovery: discoveryRequestSchema,
  ...LIFECYCLE_REQUEST_SCHEMAS,
  GeneratePatches: generatePatchesRequestSchema,
  ValidateTopology: validateTopologyRequestSchema,
  DiscoverVariables: discoverVariablesRequestSchema,
};

function responseSchemaOf(hook: HookName): z.ZodType {
  switch (hook) {
    case 'Discovery':
      return discoveryResponseSchema;
    case 'GeneratePatches':
      return generatePatchesResponseSchema;
    case 'ValidateTopology':
      return validateTopologyResponseSchema;
    case 'DiscoverVariables':
      return discoverVariablesResponseSchema;
    default:
      return isRetryHook(hook) ? retryResponseSchema : plainResponseSchema;
  }
}

export type Decoded = { ok: true; value: Record<string, unknown> } | { ok: false; message: string };

function decodeWith(schema: z.ZodType, value: unknown, what: string): Decoded {
  const parsed = schema.safeParse(value);
  if (parsed.success) {
    const data: unknown = parsed.data;
    return typeof data === 'object' && data !== null && !Array.isArray(data)
      ? { ok: true, value: Object.fromEntries(Object.entries(data)) }
      : { ok: false, message: `${what} is not a JSON object` };
  }
  const first = parsed.error.issues[0];
  const field = first && first.path.length > 0 ? first.path.map(String).join('.') : '';
  const reason = first?.message ?? 'invalid';
  return { ok: false, message: `${what} is invalid${field ? ` at ${field}` : ''}: ${reason}` };
}

/** Decodes a request body (already JSON-parsed) as `hook`'s request. Unknown fields are dropped. */
export function decodeHookRequest(hook: HookName, body: unknown): Decoded {
  const decoded = decodeWith(REQUEST_SCHEMAS[hook], body, `${requestKind(hook)}`);
  if (!decoded.ok) return decoded;
  const kind = decoded.value.kind;
  if (kind !== undefined && kind !== '' && kind !== requestKind(hook)) {
    return { ok: false, message: `${requestKind(hook)} is invalid at kind: expected "${requestKind(hook)}", got ${JSON.stringify(kind)}` };
  }
  return decoded;
}

/** Decodes a response body (already JSON-parsed) as `hook`'s response. Unknown fields are dropped. */
export function decodeHookResponse(hook: HookName, body: unknown): Decoded {
  return decodeWith(responseSchemaOf(hook), body, responseKind(hook));
}

/** The request as sent: apiVersion and kind first, then the body. */
export function encodeHookRequest(hook: HookName, body: Record<string, unknown>): Record<string, unknown> {
  const { apiVersion: _a, kind: _k, ...rest } = body;
  return { apiVersion: HOOKS_API_VERSION, kind: requestKind(hook), ...rest };
}

/**
 * The response as Cluster API's server writes it: apiVersion and kind, `status`, `message` only
 * when not empty, and `retryAfterSeconds` always on retry responses.
 */
export function encodeHookResponse(hook: HookName, body: Record<string, unknown>): Record<string, unknown> {
  const { apiVersion: _a, kind: _k, status, message, retryAfterSeconds, ...rest } = body;
  return {
    apiVersion: HOOKS_API_VERSION,
    kind: responseKind(hook),
    status,
    ...(typeof message === 'string' && message !== '' ? { message } : {}),
    ...(isRetryHook(hook) ? { retryAfterSeconds: typeof retryAfterSeconds === 'number' ? retryAfterSeconds : 0 } : {}),
    ...rest,
  };
}
