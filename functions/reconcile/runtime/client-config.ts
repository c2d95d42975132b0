/**
 * An ExtensionConfig's `spec.clientConfig` as the hook client uses it (Cluster API
 * internal/runtime/client/client.go urlForExtension): `url` (https only) or `service`
 * (`https://<name>.<namespace>.svc[:port][path]`), and `caBundle` (base64 of a PEM bundle).
 */

import { X509Certificate } from 'node:crypto';
import { type HookName, hookPath } from '../../../shared/contracts/hooks/index.js';
import { isRecord, stringAt } from '../../../shared/contracts/json.js';

export interface ResolvedClientConfig {
  /** Base URL, without the hook path. */
  base: URL;
  /** PEM text, when the ExtensionConfig has a caBundle. */
  caBundle?: string;
}

export type ClientConfigResult = { ok: true; config: ResolvedClientConfig } | { ok: false; message: string };

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** Decodes and checks a caBundle: base64 of one or more PEM certificates that parse. */
export function readCaBundle(encoded: string): { ok: true; pem: string } | { ok: false; message: string } {
  const pem = Buffer.from(encoded, 'base64').toString('utf8');
  const blocks = pem.match(PEM_BLOCK) ?? [];
  if (blocks.length === 0) return { ok: false, message: 'caBundle is not a PEM-encoded certificate bundle' };
  for (const block of blocks) {
    try {
      new X509Certificate(block);
    } catch {
      return { ok: false, message: 'caBundle holds a PEM block that is not a valid X.509 certificate' };
    }
  }
  return { ok: true, pem };
}

export function resolveClientConfig(clientConfig: unknown): ClientConfigResult {
  if (!isRecord(clientConfig)) return { ok: false, message: 'spec.clientConfig is missing' };
  const encodedCa = stringAt(clientConfig, 'caBundle');
  const ca = encodedCa === undefined ? undefined : readCaBundle(encodedCa);
  if (ca && !ca.ok) return { ok: false, message: ca.message };
  const caBundle = ca?.ok ? { caBundle: ca.pem } : {};
  const service = clientConfig.service;
  if (isRecord(service)) {
    const name = stringAt(service, 'name') ?? '';
    const namespace = stringAt(service, 'namespace') ?? '';
    const port = typeof service.port === 'number' ? `:${service.port}` : '';
    const path = stringAt(service, 'path') ?? '';
    try {
      return { ok: true, config: { base: new URL(`https://${name}.${namespace}.svc${port}${path}`), ...caBundle } };
    } catch {
      return { ok: false, message: `failed to compute URL: service ${namespace}/${name} does not make a valid URL` };
    }
  }
  const url = stringAt(clientConfig, 'url');
  if (url === undefined || url === '') return { ok: false, message: 'failed to compute URL: at least one of service and url should be defined in config' };
  let base: URL;
  try {
    base = new URL(url);
  } catch {
    return { ok: false, message: 'failed to compute URL: failed to parse url from clientConfig' };
  }
  if (base.protocol !== 'https:') return { ok: false, message: `failed to compute URL: expected https scheme, got ${base.protocol.replace(/:$/, '')}` };
  return { ok: true, config: { base, ...caBundle } };
}

/** Go's time.Duration.String() for whole seconds: 10s, 30s, 1m0s. */
function goSeconds(seconds: number): string {
  return seconds >= 60 ? `${Math.floor(seconds / 60)}m${seconds % 60}s` : `${seconds}s`;
}

/** `<base path>/hooks.runtime.cluster.x-k8s.io/v1alpha1/<hook>/<handler>?timeout=<n>s` (no timeout when 0). */
export function handlerUrl(config: ResolvedClientConfig, hook: HookName, handlerName: string | undefined, timeoutSeconds: number): string {
  const url = new URL(config.base.href);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}${hookPath(hook, handlerName)}`;
  if (timeoutSeconds > 0) url.searchParams.set('timeout', goSeconds(timeoutSeconds));
  return url.href;
}
