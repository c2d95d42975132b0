/**
 * Server-side apply (`kubectl apply --server-side`, Flux, Helm 4, controller-runtime's
 * `client.Apply`): a manager's configuration merged into the live object, the fields it names
 * recorded as that manager's in `metadata.managedFields`, a field it names that another manager
 * set to another value a conflict unless forced, and a field it applied before and names no
 * longer removed when no other manager owns it. Pure: the route admits and stores the result.
 */

import { convertReferences } from '../../../shared/contracts/conversion/references.js';
import { convertV1beta1Spec } from '../../../shared/contracts/conversion/v1beta1-to-v1beta2.js';
import { type JsonRecord, clone, deepEqual, isRecord, valueAt } from '../../../shared/contracts/json.js';
import type { KindInfo } from '../../../shared/contracts/kinds.js';
import type { KubeObject } from '../../../shared/contracts/object.js';
import { CONVERTED_GROUPS } from '../../../shared/contracts/schemas/groups.js';
import { BadRequestError, ConflictError, type StatusCause } from '../../../shared/errors/index.js';
import { objectShape } from './apply-schema.js';
import { ownablePart } from './ownable.js';
import { EMPTY_SET, type FieldSet, difference, intersection, isEmptySet, memberPaths, pathText, setOfPaths, union } from './field-set.js';
import { type ManagedFieldsEntry, managedFieldsJson, readManagedFields } from './managed-fields.js';
import { fieldSetOf, isMissing, mergeInto, valueAtPath, withoutFields } from './object-fields.js';

export interface ApplyInput {
  info: KindInfo;
  /** The stored object; undefined when the apply creates it. */
  live: KubeObject | undefined;
  /** The applied configuration as parsed from the body. */
  config: JsonRecord;
  name: string;
  namespace: string | undefined;
  manager: string;
  force: boolean;
  /** RFC 3339, seconds: the time of the manager's entry. */
  now: string;
}

/** The object the apply leaves, to be admitted as a create (no `live`) or an update; `live` itself when nothing changes. */
export function serverSideApply(input: ApplyInput): JsonRecord {
  const { info } = input;
  const storage = info.versions[0] ?? '';
  const apiVersion = info.group ? `${info.group}/${storage}` : storage;
  const owned = ownedPart(input, apiVersion);
  const shape = objectShape(info.group, info.kind);
  const applied = fieldSetOf(owned, shape);
  const entries = readManagedFields(valueAt(input.live, 'metadata', 'managedFields'));
  const mineIndex = entries.findIndex((e) => isApplyEntryOf(e, input.manager));
  const stored: unknown = input.live ? clone(input.live) : undefined;
  const live: JsonRecord = isRecord(stored) ? stored : { apiVersion, kind: info.kind, metadata: { name: input.name, ...(input.namespace !== undefined ? { namespace: input.namespace } : {}) } };

  const conflicts = conflictsOf(applied, owned, live, entries.filter((_, i) => i !== mineIndex));
  if (conflicts.length > 0 && !input.force) throw conflictError(conflicts, info, input.name);
  // Forced: the fields change hands.
  const taken = setOfPaths(conflicts.map((c) => c.path));
  const entry: ManagedFieldsEntry = { manager: input.manager, operation: 'Apply', apiVersion, time: input.now, fields: applied };
  const after: ManagedFieldsEntry[] = [];
  entries.forEach((e, i) => {
    if (i === mineIndex) {
      if (!isEmptySet(applied)) after.push(entry);
      return;
    }
    const kept = { ...e, fields: difference(e.fields, taken) };
    if (!isEmptySet(kept.fields)) after.push(kept);
  });
  if (mineIndex < 0 && !isEmptySet(applied)) after.push(entry);

  const ownedByOthers = after.filter((e) => e !== entry).reduce<FieldSet>((set, e) => union(set, e.fields), EMPTY_SET);
  // Only fields the object has where a manager may own them: never its identity, whatever an entry claims.
  const present = fieldSetOf(ownablePart(live, info), shape);
  const dropped = intersection(difference(difference(entries[mineIndex]?.fields ?? EMPTY_SET, applied), ownedByOthers), present);
  const merged = mergeInto(withoutFields(live, dropped), owned, shape);
  if (!isRecord(merged)) throw new BadRequestError('the applied configuration did not produce an object');
  if (isRecord(stored) && unchanged(stored, merged, entries, after)) return live;
  const metadata = isRecord(merged.metadata) ? merged.metadata : {};
  return { ...merged, metadata: { ...metadata, managedFields: managedFieldsJson(after) } };
}

function isApplyEntryOf(entry: ManagedFieldsEntry, manager: string): boolean {
  return entry.manager === manager && entry.operation === 'Apply' && (entry.subresource === undefined || entry.subresource === '');
}

/** The same object and the same ownership (times aside): no write, as the API server skips it. */
function unchanged(live: JsonRecord, merged: JsonRecord, before: readonly ManagedFieldsEntry[], after: readonly ManagedFieldsEntry[]): boolean {
  const withoutManaged = (object: unknown) => {
    const copy = clone(object);
    if (isRecord(copy) && isRecord(copy.metadata)) delete copy.metadata.managedFields;
    return copy;
  };
  const ownership = (entries: readonly ManagedFieldsEntry[]) => managedFieldsJson(entries).map(({ time: _time, ...rest }) => rest);
  return deepEqual(withoutManaged(live), withoutManaged(merged)) && deepEqual(ownership(before), ownership(after));
}

/** The configuration in the storage version, as far as apply owns it. */
function ownedPart(input: ApplyInput, storageApiVersion: string): JsonRecord {
  const config = clone(input.config);
  const given = typeof config.apiVersion === 'string' ? config.apiVersion : '';
  if (given !== storageApiVersion && given.endsWith('/v1beta1') && CONVERTED_GROUPS.includes(input.info.group)) {
    convertV1beta1Spec(config, input.info.group, input.info.kind);
    convertReferences(config, input.info.group, input.info.kind, input.namespace ?? '', []);
  }
  return ownablePart(config, input.info);
}

interface Conflict {
  manager: string;
  apiVersion: string | undefined;
  subresource: string | undefined;
  path: string[];
}

/** Fields the configuration changes that another manager owns (a list item or set value itself never conflicts: its fields do). */
function conflictsOf(applied: FieldSet, owned: JsonRecord, live: JsonRecord, others: readonly ManagedFieldsEntry[]): Conflict[] {
  const conflicts: Conflict[] = [];
  for (const other of others) {
    for (const path of memberPaths(intersection(applied, other.fields))) {
      const last = path[path.length - 1] ?? '';
      if (!last.startsWith('f:')) continue;
      const now = valueAtPath(live, path);
      const wanted = valueAtPath(owned, path);
      if (isMissing(now) && wanted === null) continue;
      if (!isMissing(now) && deepEqual(now, wanted)) continue;
      conflicts.push({ manager: other.manager, apiVersion: other.apiVersion, subresource: other.subresource, path });
    }
  }
  return conflicts;
}

function conflictError(conflicts: readonly Conflict[], info: KindInfo, name: string): ConflictError {
  const causes: StatusCause[] = conflicts.map((c) => ({
    reason: 'FieldManagerConflict',
    message: `conflict with ${JSON.stringify(c.manager)}${c.subresource ? ` with subresource ${JSON.stringify(c.subresource)}` : ''}${c.apiVersion ? ` using ${c.apiVersion}` : ''}`,
    field: pathText(c.path),
  }));
  const lines = causes.map((c) => `${c.message}: ${c.field}`);
  const count = `${conflicts.length} conflict${conflicts.length === 1 ? '' : 's'}`;
  return new ConflictError(`Apply failed with ${count}: ${lines.join('\n')}`, { causes, details: { group: info.group, kind: info.plural, name } });
}
