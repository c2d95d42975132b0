/**
 * How server-side apply reads an object's shape: which maps merge key by key, which lists merge
 * item by item (`x-kubernetes-list-type: map` by their keys, `set` by value) and which are
 * replaced whole (`atomic`, the default of a CRD list, and `x-kubernetes-map-type: atomic`).
 * Read from the vendored CRD schema of the kind; ObjectMeta's own list types are Kubernetes'
 * (finalizers a set, ownerReferences a map keyed by uid). Without a schema, maps are granular and
 * lists atomic, as for `x-kubernetes-preserve-unknown-fields`.
 */

import { crdSchema } from '../../../shared/contracts/crds/crd-schemas.js';
import type { StructuralSchema } from '../../../shared/contracts/schemas/common/structural-schema.js';

export type Shape = StructuralSchema | undefined;

const OBJECT_META: StructuralSchema = {
  type: 'object',
  properties: {
    finalizers: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' },
    ownerReferences: { type: 'array', items: { type: 'object' }, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['uid'] },
  },
};

/** The shape of a whole object of the kind (storage version). */
export function objectShape(group: string, kind: string): StructuralSchema {
  const schema = crdSchema(group, kind);
  return { ...schema, type: 'object', properties: { ...schema?.properties, metadata: OBJECT_META } };
}

export function fieldShape(shape: Shape, field: string): Shape {
  if (shape === undefined) return undefined;
  const declared = shape.properties?.[field];
  if (declared !== undefined) return declared;
  return typeof shape.additionalProperties === 'object' ? shape.additionalProperties : undefined;
}

export function itemShape(shape: Shape): Shape {
  return shape?.items;
}

export type ListKind = { type: 'map'; keys: readonly string[] } | { type: 'set' } | { type: 'atomic' };

export function listKind(shape: Shape): ListKind {
  const type = shape?.['x-kubernetes-list-type'];
  const keys = shape?.['x-kubernetes-list-map-keys'] ?? [];
  if (type === 'map' && keys.length > 0) return { type: 'map', keys };
  if (type === 'set') return { type: 'set' };
  return { type: 'atomic' };
}

export function isAtomicMap(shape: Shape): boolean {
  return shape?.['x-kubernetes-map-type'] === 'atomic';
}
