/**
 * Discovery of one ExtensionConfig (Cluster API internal/runtime/client/client.go Discover):
 * POST the DiscoveryRequest (10 s timeout), require HTTP 200, a decodable `status: Success`
 * response and handlers that pass Cluster API's validation.
 */

import {
  DEFAULT_HANDLER_TIMEOUT_SECONDS,
  type ExtensionHandler,
  decodeHookResponse,
  discoveryResponseSchema,
  encodeHookRequest,
  validateDiscoveryResponse,
} from '../../../../shared/contracts/hooks/index.js';
import { isRecord } from '../../../../shared/contracts/json.js';
import { type ExtensionTransport, ExtensionTransportError } from '../../../../shared/ports/runtime-extensions.js';
import { handlerUrl, resolveClientConfig } from '../client-config.js';

export type DiscoveryResult = { ok: true; handlers: ExtensionHandler[] } | { ok: false; message: string };

export async function discoverHandlers(
  transport: ExtensionTransport,
  clientConfig: unknown,
  settings: Record<string, string> | undefined,
): Promise<DiscoveryResult> {
  const config = resolveClientConfig(clientConfig);
  if (!config.ok) return { ok: false, message: config.message };
  const request = encodeHookRequest('Discovery', settings && Object.keys(settings).length > 0 ? { settings } : {});
  let reply: { status: number; body: string };
  try {
    reply = await transport.post({
      url: handlerUrl(config.config, 'Discovery', undefined, DEFAULT_HANDLER_TIMEOUT_SECONDS),
      body: JSON.stringify(request),
      timeoutMs: DEFAULT_HANDLER_TIMEOUT_SECONDS * 1000,
      ...(config.config.caBundle ? { caBundle: config.config.caBundle } : {}),
    });
  } catch (error) {
    return { ok: false, message: `discovery failed: ${error instanceof ExtensionTransportError ? error.message : String(error)}` };
  }
  if (reply.status !== 200) return { ok: false, message: `discovery failed: got response with status code ${reply.status} != 200` };
  let json: unknown;
  try {
    json = JSON.parse(reply.body);
  } catch {
    return { ok: false, message: 'discovery failed: the response is not JSON' };
  }
  const decoded = decodeHookResponse('Discovery', json);
  if (!decoded.ok) return { ok: false, message: `discovery failed: ${decoded.message}` };
  const response = discoveryResponseSchema.parse(isRecord(json) ? json : {});
  if (response.status === 'Failure') return { ok: false, message: `discovery failed: got failure response${response.message ? `: ${response.message}` : ''}` };
  const validated = validateDiscoveryResponse(response);
  if (!validated.ok) return { ok: false, message: `failed to validate discovery response: ${validated.errors.join('; ')}` };
  return { ok: true, handlers: validated.handlers };
}
