/**
 * v1beta1-style references (`corev1.ObjectReference`: apiVersion, kind, name, namespace, uid …)
 * become v1beta2 `{apiGroup, kind, name}`. A namespace, if given, must be the referrer's.
 */

import { isRecord, type JsonRecord } from '../json.js';
import { groupOf } from '../object.js';
import { type FieldError, forbidden } from '../validation/field-error.js';
import { getAt, setAt } from './json-paths.js';

/** ObjectReference fields with no v1beta2 counterpart; dropped on conversion. */
const DROPPED = new Set(['apiVersion', 'namespace', 'uid', 'resourceVersion', 'fieldPath']);

export function convertReference(
  value: unknown,
  field: string,
  namespace: string,
  errors: FieldError[],
): unknown {
  if (!isRecord(value) || typeof value.apiVersion !== 'string') return value;
  if (typeof value.namespace === 'string' && value.namespace !== '' && value.namespace !== namespace) {
    errors.push(forbidden(`${field}.namespace`, `must be the referrer's namespace "${namespace}" (cross-namespace references are not allowed)`));
  }
  const converted: JsonRecord = { apiGroup: groupOf(value.apiVersion) };
  for (const [key, item] of Object.entries(value)) {
    if (!DROPPED.has(key) && key !== 'apiGroup') converted[key] = item;
  }
  if (typeof value.apiGroup === 'string' && value.apiGroup !== converted.apiGroup) converted.apiGroup = value.apiGroup;
  return converted;
}

/** Where each kind holds contract-versioned references, in the storage (v1beta2) shape. */
export const REFERENCE_PATHS: Readonly<Record<string, readonly (readonly string[])[]>> = {
  'cluster.x-k8s.io/Cluster': [
    ['spec', 'controlPlaneRef'],
    ['spec', 'infrastructureRef'],
  ],
  'cluster.x-k8s.io/Machine': [
    ['spec', 'bootstrap', 'configRef'],
    ['spec', 'infrastructureRef'],
  ],
  'cluster.x-k8s.io/MachineSet': [
    ['spec', 'template', 'spec', 'bootstrap', 'configRef'],
    ['spec', 'template', 'spec', 'infrastructureRef'],
  ],
  'cluster.x-k8s.io/MachineDeployment': [
    ['spec', 'template', 'spec', 'bootstrap', 'configRef'],
    ['spec', 'template', 'spec', 'infrastructureRef'],
  ],
  'controlplane.cluster.x-k8s.io/KubeadmControlPlane': [['spec', 'machineTemplate', 'spec', 'infrastructureRef']],
  'ipam.cluster.x-k8s.io/IPAddressClaim': [['spec', 'poolRef']],
  'ipam.cluster.x-k8s.io/IPAddress': [['spec', 'poolRef']],
};

export function referencePaths(group: string, kind: string): readonly (readonly string[])[] {
  return REFERENCE_PATHS[`${group}/${kind}`] ?? [];
}

/** Rewrites every v1beta1-style reference of the object in place. */
export function convertReferences(obj: JsonRecord, group: string, kind: string, namespace: string, errors: FieldError[]): void {
  for (const path of referencePaths(group, kind)) {
    const value = getAt(obj, path);
    if (value !== undefined) setAt(obj, path, convertReference(value, path.join('.'), namespace, errors));
  }
}
