import fc from 'fast-check';
import type { KindInfo } from '../../../shared/contracts/kinds.js';
import { type Caller, type HostileRequest, hostile } from './model.js';
import { NS, SEED_NAMES, collectionPath } from './seeds.js';

export const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const;
export const JSON_PATCH = 'application/json-patch+json';
export const MERGE_PATCH = 'application/merge-patch+json';

/** Mostly the admin; a large share without secrets permissions; a few with no credentials. */
export const caller: fc.Arbitrary<Caller> = fc.oneof(
  { arbitrary: fc.constant<Caller>('admin'), weight: 11 },
  { arbitrary: fc.constant<Caller>('restricted'), weight: 8 },
  { arbitrary: fc.constant<Caller>('anonymous'), weight: 1 },
);

export const dnsName = fc.stringMatching(/^[a-z][a-z0-9-]{0,14}[a-z0-9]$/);
/** Seeded names (the requests reach real objects) and fresh ones. */
export const objectName = fc.oneof({ arbitrary: fc.constantFrom(...SEED_NAMES), weight: 3 }, { arbitrary: dnsName, weight: 1 }, { arbitrary: fc.constant('victim'), weight: 1 });
export const dryRun = fc.constantFrom('', '', 'dryRun=All', 'dryRun=All&dryRun=All', 'dryRun=Some', 'dryRun=');

/** Never delete a seed for real: the run keeps attacking live objects (restoreSeeds is only a backstop). */
export function request(r: HostileRequest): HostileRequest {
  const query = new URLSearchParams(r.query);
  if (r.method === 'DELETE' && !query.getAll('dryRun').includes('All')) {
    const parts = r.path.split('/');
    if (SEED_NAMES.includes(parts[parts.length - 1] ?? '')) parts[parts.length - 1] = 'victim';
    return hostile({ ...r, path: parts.join('/') });
  }
  return hostile(r);
}

export function objectPath(info: KindInfo, name: string, namespace = NS): string {
  return `${collectionPath(info, namespace)}/${name}`;
}

/** A body admission accepts for most kinds: envelope plus an empty spec (kinds with required fields answer 422). */
export function plainObject(info: KindInfo, name: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const apiVersion = info.group ? `${info.group}/${info.versions[0]}` : (info.versions[0] ?? 'v1');
  const base: Record<string, unknown> = { apiVersion, kind: info.kind, metadata: { name, namespace: NS } };
  if (info.kind === 'ConfigMap') base.data = { a: 'b' };
  else if (info.kind === 'Secret') base.data = { k: Buffer.from('fresh').toString('base64') };
  else base.spec = {};
  return { ...base, ...extra };
}

/** A JSON text with `__proto__`-style keys kept as own keys. */
export function ownKeys(entries: [string, unknown][]): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [key, value] of entries) Object.defineProperty(result, key, { value, enumerable: true, writable: true, configurable: true });
  return result;
}
