import type { KindInfo } from '../../shared/contracts/kinds.js';
import { isRecord } from '../../shared/contracts/json.js';
import type { KubeObject } from '../../shared/contracts/object.js';
import { ForbiddenError } from '../../shared/errors/index.js';
import type { Principal } from './auth.js';
import type { KubeStatus } from './status.js';

/**
 * The one rule for Secret data (ARCHITECTURE.md "Store semantics"): lists never carry it; every
 * verb on a named Secret returns or reveals its data (a JSON patch `test` is an oracle, a dry-run
 * delete returns the object), so each needs the read permission, and every change needs the
 * write permission too; no response or error message quotes a Secret value.
 */
export type SecretVerb = 'get' | 'list' | 'create' | 'update' | 'patch' | 'delete';

const PERMISSIONS: Readonly<Record<SecretVerb, readonly ('read' | 'write')[]>> = {
  list: [],
  get: ['read'],
  create: ['write'],
  update: ['read', 'write'],
  patch: ['read', 'write'],
  delete: ['read', 'write'],
};

export function verbOf(method: string, named: boolean): SecretVerb | undefined {
  switch (method) {
    case 'GET':
      return named ? 'get' : 'list';
    case 'POST':
      return 'create';
    case 'PUT':
      return 'update';
    case 'PATCH':
      return 'patch';
    case 'DELETE':
      return 'delete';
    default:
      return undefined;
  }
}

/** Throws 403 unless the principal holds every permission the verb needs on a sensitive kind. */
export function authorizeSecretVerb(info: KindInfo, verb: SecretVerb | undefined, principal: Principal, name: string | undefined): void {
  if (!info.sensitive || verb === undefined) return;
  const missing = missingPermissions(principal, verb);
  if (missing.length === 0) return;
  const target = name === undefined ? info.plural : `${info.plural} "${name}"`;
  throw new ForbiddenError(`${target} is forbidden: User "${principal.name}" cannot ${verb} resource "${info.plural}": it needs ${missing.map((p) => `secrets:${p}`).join(' and ')}`, {
    details: { group: info.group, kind: info.plural, ...(name !== undefined ? { name } : {}) },
  });
}

function missingPermissions(principal: Principal, verb: SecretVerb): ('read' | 'write')[] {
  return PERMISSIONS[verb].filter((p) => (p === 'read' ? !principal.canReadSecrets : !principal.canWriteSecrets));
}

/** Whether the principal may use the verb on Secrets (what a self access review answers). */
export function secretVerbAllowed(principal: Principal, verb: SecretVerb): boolean {
  return missingPermissions(principal, verb).length === 0;
}

/** A Secret as this principal may see it: without `data` in lists, or unless it may read Secrets (admission folds `stringData` into `data`). */
export function visibleTo(object: KubeObject, info: KindInfo, principal: Principal, listing: boolean): KubeObject {
  if (!info.sensitive || (principal.canReadSecrets && !listing)) return object;
  const { data: _data, ...rest } = object;
  return rest;
}

/** Every string value under `data` and `stringData` of the given Secrets, as stored and base64-decoded. */
export function secretValues(...objects: unknown[]): string[] {
  const values = new Set<string>();
  for (const object of objects) {
    if (!isRecord(object)) continue;
    for (const field of ['data', 'stringData']) {
      const map = object[field];
      if (!isRecord(map)) continue;
      for (const value of Object.values(map)) {
        if (typeof value !== 'string' || value === '') continue;
        values.add(value);
        if (field === 'data') values.add(Buffer.from(value, 'base64').toString('utf8'));
      }
    }
  }
  return [...values].filter((v) => v.length > 0).sort((a, b) => b.length - a.length);
}

const REDACTED = '[redacted]';

/** The same Status with every Secret value removed from its message and causes. */
export function redactStatus(status: KubeStatus, values: readonly string[]): KubeStatus {
  if (values.length === 0) return status;
  const scrub = (text: string) => scrubText(text, values);
  const causes = status.details?.causes?.map((c) => ({ ...c, message: scrub(c.message), ...(c.field !== undefined ? { field: scrub(c.field) } : {}) }));
  return {
    ...status,
    message: scrub(status.message),
    ...(status.details ? { details: { ...status.details, ...(causes ? { causes } : {}) } } : {}),
  };
}

/** Quoted forms first (how field errors render values), then raw occurrences of values long enough to be told from ordinary words. */
function scrubText(text: string, values: readonly string[]): string {
  let out = text;
  for (const value of values) {
    out = out.replaceAll(JSON.stringify(value), JSON.stringify(REDACTED));
    if (value.length >= 4) out = out.replaceAll(value, REDACTED);
  }
  return out;
}
