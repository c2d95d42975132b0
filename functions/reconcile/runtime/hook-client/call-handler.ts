/** One POST to one handler, turned into a HandlerOutcome (never throws for what the extension does). */

import { decodeHookResponse, encodeHookRequest, type HookName } from '../../../../shared/contracts/hooks/index.js';
import { type ExtensionTransport, ExtensionTransportError } from '../../../../shared/ports/runtime-extensions.js';
import { handlerUrl, resolveClientConfig } from '../client-config.js';
import type { Registration } from '../registrations.js';
import type { HandlerOutcome } from './outcome.js';

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

function shorten(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

export async function callHandler(
  transport: ExtensionTransport,
  registration: Registration,
  hook: HookName,
  body: Record<string, unknown>,
): Promise<HandlerOutcome> {
  const config = resolveClientConfig(registration.clientConfig);
  if (!config.ok) return { kind: 'callError', message: config.message };
  const url = handlerUrl(config.config, hook, registration.handlerName, registration.timeoutSeconds);
  // Settings: the registration's, overlaid by the request's (cloneAndAddSettings).
  const requestSettings = typeof body.settings === 'object' && body.settings !== null ? body.settings : {};
  const request = encodeHookRequest(hook, { ...body, settings: { ...registration.settings, ...requestSettings } });
  let reply: { status: number; body: string };
  try {
    reply = await transport.post({
      url,
      body: JSON.stringify(request),
      timeoutMs: registration.timeoutSeconds * 1000,
      ...(config.config.caBundle ? { caBundle: config.config.caBundle } : {}),
    });
  } catch (error) {
    const message = error instanceof ExtensionTransportError ? error.message : `http call failed: ${String(error)}`;
    return { kind: 'callError', message };
  }
  if (reply.status !== 200) return { kind: 'callError', message: `got response with status code ${reply.status} != 200: ${JSON.stringify(shorten(reply.body))}` };
  const json = parseJson(reply.body);
  if (!json.ok) return { kind: 'callError', message: 'failed to decode response: not JSON' };
  const decoded = decodeHookResponse(hook, json.value);
  if (!decoded.ok) return { kind: 'invalid', message: decoded.message };
  const message = typeof decoded.value.message === 'string' ? decoded.value.message : '';
  if (decoded.value.status === 'Failure') return { kind: 'failure', message };
  const retry = decoded.value.retryAfterSeconds;
  return { kind: 'success', retryAfterSeconds: typeof retry === 'number' ? retry : 0, message, response: decoded.value };
}
