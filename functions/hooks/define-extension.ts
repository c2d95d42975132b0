/**
 * The authoring API for Runtime Extensions capless hosts:
 *
 * ```ts
 * export const gate = defineExtension({
 *   name: 'upgrade-gate',
 *   handlers: {
 *     beforeClusterUpgrade: async (request) => ({ retryAfterSeconds: 60, message: 'not yet' }),
 *   },
 * });
 * ```
 *
 * One extension serves Discovery and each declared hook on Cluster API's paths
 * (`/hooks.runtime.cluster.x-k8s.io/v1alpha1/<hook>/<handler>`), with the request decoded and the
 * response encoded by the wire types in shared/contracts/hooks/ (the ones the hook client uses).
 * As in Cluster API's server (exp/runtime/server), every answer to a known path is HTTP 200 with a
 * JSON body: a malformed request or a handler that throws is a `status: Failure` response with a
 * message, never a 500.
 */

import {
  DEFAULT_HANDLER_TIMEOUT_SECONDS,
  decodeHookRequest,
  encodeHookResponse,
  type ExtensionHandler,
  type FailurePolicy,
  HOOKS_API_VERSION,
  HOOKS_GROUP,
  HOOKS_VERSION,
  type HookName,
  hookFromPathSegment,
  LIFECYCLE_HOOKS,
  type LifecycleHook,
  type LifecycleRequest,
} from '../../shared/contracts/hooks/index.js';
import { DNS1123_LABEL } from '../../shared/contracts/schemas/common/names.js';
import { type ApiResponse, jsonResponse } from '../api/http.js';
import { parseJsonText } from '../api/input/json-text.js';

/** What a handler answers. `status` defaults to Success; `retryAfterSeconds` (blocking hooks) to 0. */
export interface HandlerAnswer {
  status?: 'Success' | 'Failure';
  message?: string;
  retryAfterSeconds?: number;
}

export interface HandlerContext {
  /** The request's settings (the ExtensionConfig's, overlaid by the caller's). */
  settings: Readonly<Record<string, string>>;
  /** The current time (injectable for tests). */
  now(): Date;
}

export type LifecycleHandler<H extends LifecycleHook> = (request: LifecycleRequest<H>, context: HandlerContext) => Promise<HandlerAnswer> | HandlerAnswer;

export interface HandlerOptions<H extends LifecycleHook> {
  handle: LifecycleHandler<H>;
  /** Handler name in discovery; default the hook in kebab case (`before-cluster-upgrade`). */
  name?: string;
  /** 0–30; default 10. */
  timeoutSeconds?: number;
  /** Default Fail. */
  failurePolicy?: FailurePolicy;
}

/** `beforeClusterUpgrade`, `afterControlPlaneInitialized`, …: a function or a function with options. */
export type LifecycleHandlers = { [H in LifecycleHook as Uncapitalize<H>]?: LifecycleHandler<H> | HandlerOptions<H> };

export interface ExtensionDefinition {
  /** The extension's name: a DNS-1123 label, also its path segment and ExtensionConfig name. */
  name: string;
  handlers: LifecycleHandlers;
  /** Clock for handlers; default the system clock. */
  now?: () => Date;
}

export interface ExtensionRequest {
  method: string;
  /** Path below the extension's base URL, e.g. `/hooks.runtime.cluster.x-k8s.io/v1alpha1/discovery`. */
  path: string;
  body: string;
}

export interface RuntimeExtension {
  readonly name: string;
  /** The handlers Discovery announces. */
  readonly handlers: readonly ExtensionHandler[];
  handle(request: ExtensionRequest): Promise<ApiResponse>;
}

interface Bound {
  hook: LifecycleHook;
  handler: ExtensionHandler;
  handle: (request: Record<string, unknown>, context: HandlerContext) => Promise<HandlerAnswer> | HandlerAnswer;
}

function kebab(hook: string): string {
  return hook.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();
}

function lowerFirst(hook: LifecycleHook): Uncapitalize<LifecycleHook> {
  const key = `${hook.charAt(0).toLowerCase()}${hook.slice(1)}`;
  const found = LIFECYCLE_HOOKS.map((h) => `${h.charAt(0).toLowerCase()}${h.slice(1)}`).find((k) => k === key);
  if (found === undefined) throw new Error(`unknown hook ${hook}`);
  return found as Uncapitalize<LifecycleHook>;
}

function bind(definition: ExtensionDefinition): Bound[] {
  const bound: Bound[] = [];
  for (const hook of LIFECYCLE_HOOKS) {
    const entry: unknown = definition.handlers[lowerFirst(hook)];
    if (entry === undefined) continue;
    const options: HandlerOptions<LifecycleHook> =
      typeof entry === 'function' ? { handle: entry as LifecycleHandler<LifecycleHook> } : (entry as HandlerOptions<LifecycleHook>);
    const name = options.name ?? kebab(hook);
    if (!DNS1123_LABEL.test(name) || name.length > 63) throw new Error(`extension ${definition.name}: handler name "${name}" is not a DNS-1123 label`);
    const timeoutSeconds = options.timeoutSeconds ?? DEFAULT_HANDLER_TIMEOUT_SECONDS;
    if (!Number.isInteger(timeoutSeconds) || timeoutSeconds < 0 || timeoutSeconds > 30) {
      throw new Error(`extension ${definition.name}: handler ${name} timeoutSeconds must be 0–30`);
    }
    if (bound.some((b) => b.handler.name === name)) throw new Error(`extension ${definition.name}: duplicate handler name ${name}`);
    bound.push({
      hook,
      handler: { name, requestHook: { apiVersion: HOOKS_API_VERSION, hook }, timeoutSeconds, failurePolicy: options.failurePolicy ?? 'Fail' },
      handle: (request, context) => options.handle(request as LifecycleRequest<LifecycleHook>, context),
    });
  }
  return bound;
}

function answer(hook: HookName, body: Record<string, unknown>): ApiResponse {
  return jsonResponse(200, encodeHookResponse(hook, body));
}

function failure(hook: HookName, message: string): ApiResponse {
  return answer(hook, { status: 'Failure', message });
}

/** A handler's answer checked before it goes on the wire (a handler bug is a Failure, not a bad body). */
function checkedAnswer(hook: LifecycleHook, value: HandlerAnswer): Record<string, unknown> {
  const status = value.status ?? 'Success';
  const retry = value.retryAfterSeconds ?? 0;
  if (status !== 'Success' && status !== 'Failure') return { status: 'Failure', message: `handler returned an unknown status ${JSON.stringify(status)}` };
  if (!Number.isInteger(retry) || retry < 0 || retry > 2147483647) return { status: 'Failure', message: 'handler returned an invalid retryAfterSeconds' };
  return { status, message: value.message ?? '', ...(hook === 'AfterControlPlaneInitialized' ? {} : { retryAfterSeconds: retry }) };
}

const PREFIX = `/${HOOKS_GROUP}/${HOOKS_VERSION}/`;

export function defineExtension(definition: ExtensionDefinition): RuntimeExtension {
  if (!DNS1123_LABEL.test(definition.name) || definition.name.length > 63) throw new Error(`extension name "${definition.name}" is not a DNS-1123 label`);
  const bound = bind(definition);
  const now = definition.now ?? (() => new Date());
  const handlers = bound.map((b) => b.handler);

  /** The hook and target a path names: Discovery, a declared handler, or nothing. */
  function route(path: string): { hook: HookName; target: Bound | 'discovery' } | undefined {
    if (!path.startsWith(PREFIX)) return undefined;
    const [segment = '', handlerName, ...extra] = path.slice(PREFIX.length).split('/');
    const hook = hookFromPathSegment(segment);
    if (hook === undefined || extra.length > 0) return undefined;
    if (hook === 'Discovery') return handlerName === undefined ? { hook, target: 'discovery' } : undefined;
    const target = bound.find((b) => b.hook === hook && b.handler.name === handlerName);
    return target ? { hook, target } : undefined;
  }

  async function run(target: Bound, request: Record<string, unknown>): Promise<ApiResponse> {
    const context: HandlerContext = { settings: stringEntries(request.settings), now };
    try {
      return answer(target.hook, checkedAnswer(target.hook, await target.handle(request, context)));
    } catch (error) {
      return failure(target.hook, `handler ${target.handler.name} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  async function handle(request: ExtensionRequest): Promise<ApiResponse> {
    const routed = route(request.path);
    if (!routed) return notFound(request.path);
    if (request.method !== 'POST') return jsonResponse(405, { status: 'Failure', message: `method ${request.method} is not allowed: use POST` });
    const json = parseJson(request.body);
    if (!json.ok) return failure(routed.hook, json.message);
    const decoded = decodeHookRequest(routed.hook, json.value);
    if (!decoded.ok) return failure(routed.hook, decoded.message);
    if (routed.target === 'discovery') return answer('Discovery', { status: 'Success', handlers });
    return run(routed.target, decoded.value);
  }

  return { name: definition.name, handlers, handle };
}

/** The API's hardened parser (duplicate keys, nesting and `__proto__` refused; ADR 0043). */
function parseJson(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: text === '' ? {} : parseJsonText(text, 'the request body') };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}

function stringEntries(value: unknown): Record<string, string> {
  if (typeof value !== 'object' || value === null) return {};
  return Object.fromEntries(Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}

function notFound(path: string): ApiResponse {
  return jsonResponse(404, { status: 'Failure', message: `no handler is served at ${path.slice(0, 200)}` });
}
