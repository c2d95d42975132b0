/**
 * What an apply request carries beside its body: `fieldManager` (required) and `force`, checked as
 * the API server checks PatchOptions; and the body's identity against the path.
 */

import { type JsonRecord, isRecord, stringAt } from '../../../shared/contracts/json.js';
import type { KindInfo } from '../../../shared/contracts/kinds.js';
import { groupOf } from '../../../shared/contracts/object.js';
import { BadRequestError, InvalidError, type StatusCause } from '../../../shared/errors/index.js';
import { MAX_MANAGER_LENGTH } from './managed-fields.js';

export const APPLY_PATCH_TYPE = 'application/apply-patch+yaml';

export interface ApplyOptions {
  manager: string;
  force: boolean;
}

/** `fieldManager` and `force` of an apply patch. */
export function applyOptions(query: URLSearchParams): ApplyOptions {
  const manager = query.get('fieldManager') ?? '';
  const causes: StatusCause[] = [];
  if (manager === '') causes.push({ field: 'fieldManager', reason: 'FieldValueRequired', message: 'is required for apply patch' });
  else causes.push(...managerErrors(manager));
  const force = forceOf(query, causes);
  if (causes.length > 0) throw patchOptionsInvalid(causes);
  return { manager, force };
}

/** A non-apply patch may name a manager but must not force. */
export function checkNonApplyOptions(query: URLSearchParams): void {
  const causes: StatusCause[] = [];
  const manager = query.get('fieldManager');
  if (manager !== null && manager !== '') causes.push(...managerErrors(manager));
  if (forceOf(query, causes)) causes.push({ field: 'force', reason: 'FieldValueForbidden', message: 'may not be specified for non-apply patch' });
  if (causes.length > 0) throw patchOptionsInvalid(causes);
}

function managerErrors(manager: string): StatusCause[] {
  if (manager.length > MAX_MANAGER_LENGTH) return [{ field: 'fieldManager', reason: 'FieldValueTooLong', message: `may not be more than ${MAX_MANAGER_LENGTH} bytes` }];
  if (/[\p{C}]/u.test(manager)) return [{ field: 'fieldManager', reason: 'FieldValueInvalid', message: 'must be made of printable characters' }];
  return [];
}

function forceOf(query: URLSearchParams, causes: StatusCause[]): boolean {
  const value = query.get('force');
  if (value === null || value === 'false') return false;
  if (value === 'true') return true;
  causes.push({ field: 'force', reason: 'FieldValueInvalid', message: 'must be true or false' });
  return false;
}

function patchOptionsInvalid(causes: StatusCause[]): InvalidError {
  return new InvalidError(`PatchOptions.meta.k8s.io "" is invalid: ${causes.map((c) => `${c.field}: ${c.message}`).join(', ')}`, {
    causes,
    details: { group: 'meta.k8s.io', kind: 'PatchOptions' },
  });
}

/** The applied configuration names this path's kind and object (its name may be left out). */
export function checkApplyIdentity(config: unknown, info: KindInfo, name: string, namespace: string | undefined): JsonRecord {
  if (!isRecord(config)) throw new BadRequestError('the applied configuration must be an object');
  const causes: StatusCause[] = [];
  const apiVersion = stringAt(config, 'apiVersion');
  const version = apiVersion?.slice(apiVersion.lastIndexOf('/') + 1) ?? '';
  if (apiVersion === undefined || groupOf(apiVersion) !== info.group || !info.versions.includes(version)) {
    causes.push({ field: 'apiVersion', reason: 'FieldValueInvalid', message: `must be one of ${info.versions.map((v) => (info.group ? `${info.group}/${v}` : v)).join(', ')}` });
  }
  if (config.kind !== info.kind) causes.push({ field: 'kind', reason: 'FieldValueInvalid', message: `must be ${info.kind}` });
  const given = stringAt(config, 'metadata', 'name');
  if (given !== undefined && given !== name) causes.push({ field: 'metadata.name', reason: 'FieldValueInvalid', message: `does not match the name in the URL (${name})` });
  const givenNamespace = stringAt(config, 'metadata', 'namespace');
  if (info.namespaced && givenNamespace !== undefined && givenNamespace !== namespace) {
    causes.push({ field: 'metadata.namespace', reason: 'FieldValueInvalid', message: `does not match the namespace in the URL (${namespace ?? ''})` });
  }
  if (causes.length > 0) throw new BadRequestError(`the applied configuration does not match the request: ${causes.map((c) => `${c.field}: ${c.message}`).join(', ')}`, { causes });
  return config;
}
