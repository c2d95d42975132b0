/**
 * Fields that may not change on update, as data: one row per kind and path. `onceSet` rows may
 * go from unset to set, but never change or be removed afterwards.
 */

import { deepEqual, isRecord } from '../json.js';
import type { KubeObject } from '../object.js';
import { CLUSTER_GROUP, CONTROL_PLANE_GROUP, CORE_GROUP, IPAM_GROUP } from '../schemas/groups.js';
import { type FieldError, forbidden, invalid } from './field-error.js';

export interface ImmutableField {
  group: string;
  kind: string;
  path: readonly string[];
  onceSet?: boolean;
}

export const IMMUTABLE_FIELDS: readonly ImmutableField[] = [
  { group: CLUSTER_GROUP, kind: 'Machine', path: ['spec', 'clusterName'] },
  { group: CLUSTER_GROUP, kind: 'Machine', path: ['spec', 'bootstrap', 'configRef'] },
  { group: CLUSTER_GROUP, kind: 'Machine', path: ['spec', 'infrastructureRef'] },
  { group: CLUSTER_GROUP, kind: 'MachineSet', path: ['spec', 'clusterName'] },
  { group: CLUSTER_GROUP, kind: 'MachineSet', path: ['spec', 'selector'] },
  { group: CLUSTER_GROUP, kind: 'MachineDeployment', path: ['spec', 'clusterName'] },
  { group: CLUSTER_GROUP, kind: 'MachineDeployment', path: ['spec', 'selector'] },
  { group: CLUSTER_GROUP, kind: 'MachineHealthCheck', path: ['spec', 'clusterName'] },
  { group: CLUSTER_GROUP, kind: 'Cluster', path: ['spec', 'infrastructureRef'], onceSet: true },
  { group: CLUSTER_GROUP, kind: 'Cluster', path: ['spec', 'controlPlaneRef'], onceSet: true },
  { group: CONTROL_PLANE_GROUP, kind: 'KubeadmControlPlane', path: ['spec', 'machineTemplate', 'spec', 'infrastructureRef', 'apiGroup'] },
  { group: CONTROL_PLANE_GROUP, kind: 'KubeadmControlPlane', path: ['spec', 'machineTemplate', 'spec', 'infrastructureRef', 'kind'] },
  { group: CORE_GROUP, kind: 'Secret', path: ['type'] },
  { group: IPAM_GROUP, kind: 'IPAddressClaim', path: ['spec'] },
  { group: IPAM_GROUP, kind: 'IPAddress', path: ['spec'] },
];

function valueAt(obj: unknown, path: readonly string[]): unknown {
  let current: unknown = obj;
  for (const segment of path) {
    if (!isRecord(current)) return undefined;
    current = current[segment];
  }
  return current;
}

/** Objects marked `immutable: true` (Secret, ConfigMap) keep their data. */
function immutableData(next: KubeObject, old: KubeObject): FieldError[] {
  const oldImmutable = isRecord(old) && old.immutable === true;
  if (!oldImmutable) return [];
  const errors: FieldError[] = [];
  if (valueAt(next, ['immutable']) !== true) errors.push(forbidden('immutable', 'field is immutable when `immutable` is set'));
  for (const field of ['data', 'binaryData']) {
    if (!deepEqual(valueAt(next, [field]), valueAt(old, [field]))) {
      errors.push(forbidden(field, 'field is immutable when `immutable` is set'));
    }
  }
  return errors;
}

export function validateImmutable(group: string, next: KubeObject, old: KubeObject): FieldError[] {
  const errors: FieldError[] = [];
  for (const row of IMMUTABLE_FIELDS) {
    if (row.group !== group || row.kind !== next.kind) continue;
    const before = valueAt(old, row.path);
    const after = valueAt(next, row.path);
    if (row.onceSet && before === undefined) continue;
    if (!deepEqual(before, after)) errors.push(invalid(row.path.join('.'), after ?? null, 'field is immutable'));
  }
  return [...errors, ...immutableData(next, old)];
}
