/**
 * The Discovery hook (api/runtime/hooks/v1alpha1/discovery_types.go) and the checks Cluster API
 * runs on a discovery response before registering its handlers
 * (internal/runtime/client/client.go defaultAndValidateDiscoveryResponse).
 */

import { z } from 'zod';
import { DNS1123_LABEL } from '../schemas/common/names.js';
import { isCatalogHook } from './catalog.js';
import { commonRequest, commonResponse, type FailurePolicy } from './common.js';

export const DEFAULT_HANDLER_TIMEOUT_SECONDS = 10;
export const MAX_HANDLER_TIMEOUT_SECONDS = 30;

export const discoveryRequestSchema = z.object({ ...commonRequest });
export type DiscoveryRequest = z.infer<typeof discoveryRequestSchema>;

/** A handler as decoded: policy and timeout kept as sent, so validation can name what is wrong. */
export const extensionHandlerSchema = z.object({
  name: z.string(),
  requestHook: z.object({ apiVersion: z.string(), hook: z.string() }),
  timeoutSeconds: z.int32().optional(),
  failurePolicy: z.string().optional(),
});
export type DecodedExtensionHandler = z.infer<typeof extensionHandlerSchema>;

export const discoveryResponseSchema = z.object({
  ...commonResponse,
  handlers: z.array(extensionHandlerSchema).default([]),
});
export type DiscoveryResponse = z.infer<typeof discoveryResponseSchema>;

/** A handler after defaulting and validation: what ExtensionConfig `status.handlers[]` holds. */
export interface ExtensionHandler {
  name: string;
  requestHook: { apiVersion: string; hook: string };
  timeoutSeconds: number;
  failurePolicy: FailurePolicy;
}

export type DiscoveryValidation = { ok: true; handlers: ExtensionHandler[] } | { ok: false; errors: string[] };

/**
 * Defaults (timeout 10 s, policy Fail) and validates every handler as Cluster API does: unique
 * DNS-1123 label names, timeoutSeconds 0–30, failurePolicy Fail or Ignore, a hook in the catalog.
 * Any error rejects the whole response (nothing is registered from it).
 */
export function validateDiscoveryResponse(response: DiscoveryResponse): DiscoveryValidation {
  const errors: string[] = [];
  const seen = new Set<string>();
  const handlers: ExtensionHandler[] = [];
  for (const handler of response.handlers) {
    const timeoutSeconds = handler.timeoutSeconds ?? DEFAULT_HANDLER_TIMEOUT_SECONDS;
    const failurePolicy = handler.failurePolicy ?? 'Fail';
    if (seen.has(handler.name)) errors.push(`duplicate name for handler ${handler.name} found`);
    seen.add(handler.name);
    if (handler.name.length > 63 || !DNS1123_LABEL.test(handler.name)) {
      errors.push(`handler name ${handler.name} is not valid: must be a lowercase RFC 1123 label of at most 63 characters`);
    }
    if (timeoutSeconds < 0 || timeoutSeconds > MAX_HANDLER_TIMEOUT_SECONDS) {
      errors.push(`handler ${handler.name} timeoutSeconds ${timeoutSeconds} must be between 0 and ${MAX_HANDLER_TIMEOUT_SECONDS}`);
    }
    if (failurePolicy !== 'Fail' && failurePolicy !== 'Ignore') {
      errors.push(`handler ${handler.name} failurePolicy ${failurePolicy} must equal "Ignore" or "Fail"`);
    }
    if (!isCatalogHook(handler.requestHook.apiVersion, handler.requestHook.hook)) {
      errors.push(`handler ${handler.name} requestHook ${handler.requestHook.apiVersion}/${handler.requestHook.hook} is not in the Runtime SDK catalog`);
    }
    if (failurePolicy === 'Fail' || failurePolicy === 'Ignore') {
      handlers.push({ name: handler.name, requestHook: { ...handler.requestHook }, timeoutSeconds, failurePolicy });
    }
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, handlers };
}
