/**
 * Ports of the Runtime SDK: how capless reaches an extension (ExtensionTransport) and how the
 * topology reconciler calls lifecycle hooks (HookClient).
 *
 * ## The HookClient contract (for the topology reconciler)
 *
 * `call(hook, cluster, body)` calls every handler registered for `hook` (discovered by an
 * ExtensionConfig whose namespaceSelector matches the Cluster's namespace), one by one, ordered by
 * ExtensionConfig name then discovery order, and returns one aggregated result:
 *
 * - `Success`: every handler answered Success with retryAfterSeconds 0 (or none is registered, or
 *   a call error was masked by `failurePolicy: Ignore`). Proceed.
 * - `Blocked`: every handler answered Success and the smallest non-zero `retryAfterSeconds` is
 *   returned. Do not proceed; requeue the Cluster after exactly that many seconds.
 * - `Failure`: a handler answered `status: Failure` (never masked), or a call failed (transport
 *   error, timeout, non-200, a body that does not decode, an unknown status, a negative or
 *   out-of-range retryAfterSeconds) under `failurePolicy: Fail`, or the response was invalid.
 *   Do not proceed; treat as a reconcile error (Cluster API returns an error and retries with
 *   backoff), keeping every pending-hooks mark. The first failing handler stops the calls.
 *
 * `message` joins the handlers' messages with ", " (Cluster API's aggregation); on Failure it names
 * the failing handler. `call` never throws for anything an extension does; it throws only when the
 * store itself fails (a transient error the caller's retry handles).
 *
 * The embedded Cluster is sent in v1beta2 form without managedFields and status; `settings` are
 * the ExtensionConfig's. Lifecycle state (pending-hooks, ok-to-delete) is the caller's: see
 * functions/reconcile/runtime/lifecycle/ for the gate the topology reconciler calls at each point.
 */

import type { LifecycleCallBody, LifecycleHook } from '../contracts/hooks/index.js';
import type { KubeObject } from '../contracts/object.js';

export interface ExtensionPost {
  /** Full https URL including `?timeout=`. */
  url: string;
  /** PEM bundle the server certificate must chain to; undefined = the system trust store. */
  caBundle?: string;
  /** JSON text. */
  body: string;
  /** Abort after this many milliseconds; undefined or 0 = no timeout. */
  timeoutMs?: number;
}

export interface ExtensionReply {
  status: number;
  body: string;
}

/** POSTs JSON to an extension over TLS. Rejects (ExtensionTransportError) on any transport failure or timeout. */
export interface ExtensionTransport {
  post(request: ExtensionPost): Promise<ExtensionReply>;
}

export class ExtensionTransportError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ExtensionTransportError';
  }
}

export type HookStatus = 'Success' | 'Failure' | 'Blocked';

export interface HookResult {
  status: HookStatus;
  /** Set when Blocked: the smallest non-zero retryAfterSeconds of all handlers. */
  retryAfterSeconds?: number;
  message: string;
  /** Registered handler names (`<handler>.<ExtensionConfig>`) that were called, in order. */
  handlers: string[];
}

export interface HookClient {
  call<H extends LifecycleHook>(hook: H, cluster: KubeObject, body: LifecycleCallBody<H>): Promise<HookResult>;
}

export type NamedHook = 'GeneratePatches' | 'ValidateTopology' | 'DiscoverVariables';

export type NamedCallResult =
  /** The decoded `status: Success` response (an empty Success when Ignore masked a call error). */
  | { status: 'Success'; response: Record<string, unknown> }
  | { status: 'Failure'; message: string };

/**
 * Calls one registered handler by its registered name (`<handler>.<ExtensionConfig>`), as a
 * ClusterClass's `external` patches name them (Cluster API CallExtension): the handler must exist
 * for that hook and its ExtensionConfig's namespaceSelector must match `namespace`; failurePolicy
 * Ignore masks call errors only. `settings` overlay the ExtensionConfig's (ClusterClass external
 * settings win).
 */
export interface ExtensionCaller {
  callExtension(registeredName: string, hook: NamedHook, namespace: string, body: Record<string, unknown>): Promise<NamedCallResult>;
}

/** Keys of the ports on ReconcileContext.providers. */
export const HOOK_CLIENT_PORT = 'hookClient';
/** The same client as HOOK_CLIENT_PORT, as an ExtensionCaller (external patches). */
export const EXTENSION_CALLER_PORT = 'extensionCaller';
export const EXTENSION_TRANSPORT_PORT = 'extensionTransport';

export function isHookClient(value: unknown): value is HookClient {
  return typeof value === 'object' && value !== null && 'call' in value && typeof value.call === 'function';
}

export function isExtensionCaller(value: unknown): value is ExtensionCaller {
  return typeof value === 'object' && value !== null && 'callExtension' in value && typeof value.callExtension === 'function';
}

/** The ExtensionCaller on a reconcile context's providers, if the Runtime SDK is wired. */
export function extensionCallerFrom(providers: Readonly<Record<string, unknown>> | undefined): ExtensionCaller | undefined {
  const caller = providers?.[EXTENSION_CALLER_PORT];
  return isExtensionCaller(caller) ? caller : undefined;
}

export function isExtensionTransport(value: unknown): value is ExtensionTransport {
  return typeof value === 'object' && value !== null && 'post' in value && typeof value.post === 'function';
}
