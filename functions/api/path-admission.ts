import { admitCreate, admitStatusUpdate, admitUpdate, type AdmissionContext } from '../../shared/contracts/admission/admit.js';
import { stringAt } from '../../shared/contracts/json.js';
import type { KindRegistry } from '../../shared/contracts/kinds.js';
import { groupOf } from '../../shared/contracts/object.js';
import { BadRequestError, InvalidError, type StatusCause } from '../../shared/errors/index.js';
import type { Admission, AdmissionTarget } from './admission-port.js';

/** What the API needs to know about providers to admit references. */
export interface ServedKinds {
  isServedKind(group: string, kind: string): boolean;
}

/**
 * Admission for the management API: the body must agree with the path it was sent to (group,
 * kind), then the kind's own rules run (shared/contracts/admission: conversion, defaults,
 * validation, immutability).
 */
export function pathAdmission(kinds: KindRegistry, served: ServedKinds): Admission {
  const contextFor = (target: AdmissionTarget): AdmissionContext => ({
    kinds,
    namespace: target.namespace,
    isServedKind: (group, kind) => served.isServedKind(group, kind) || kinds.get(group, kind) !== undefined,
  });
  return {
    create: (body, target) => admitCreate(checkPathAgreement(body, target), contextFor(target)),
    update: (body, old, target) => admitUpdate(checkPathAgreement(body, target), old, contextFor(target)),
    updateStatus: (body, old, target) => admitStatusUpdate(checkPathAgreement(body, target), old, contextFor(target)),
  };
}

const TOP_LEVEL = new Set(['apiVersion', 'kind', 'metadata', 'spec', 'status', 'data', 'binaryData', 'stringData', 'type', 'immutable']);
const METADATA = new Set([
  'name', 'generateName', 'namespace', 'uid', 'resourceVersion', 'generation', 'creationTimestamp', 'deletionTimestamp',
  'deletionGracePeriodSeconds', 'finalizers', 'ownerReferences', 'labels', 'annotations', 'managedFields', 'selfLink',
]);

/** ObjectMeta and the object envelope are closed: an unknown field there is a typo, never silently stored. */
function unknownFields(body: object, target: AdmissionTarget): StatusCause[] {
  const causes: StatusCause[] = [];
  // Kinds without a spec declare their top-level fields with the kind (their schemas check them).
  const kindFields = target.info.topLevelFields ?? [];
  for (const field of Object.keys(body)) {
    if (!TOP_LEVEL.has(field) && !kindFields.includes(field)) causes.push({ field: field || '""', reason: 'FieldValueInvalid', message: `unknown field ${JSON.stringify(field)}` });
  }
  const metadata: unknown = Reflect.get(body, 'metadata');
  if (metadata !== undefined && (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata))) {
    causes.push({ field: 'metadata', reason: 'FieldValueInvalid', message: 'must be an object' });
  } else if (metadata) {
    for (const field of Object.keys(metadata)) {
      if (!METADATA.has(field)) causes.push({ field: `metadata.${field || '""'}`, reason: 'FieldValueInvalid', message: `unknown field ${JSON.stringify(field)}` });
    }
  }
  return causes;
}

/** A body for `/apis/g/v/.../clusters` must be a Cluster of group g (any served version: conversion follows). */
export function checkPathAgreement(body: unknown, target: AdmissionTarget): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new BadRequestError('the request body must be a JSON or YAML object');
  }
  const causes: StatusCause[] = [];
  const apiVersion = stringAt(body, 'apiVersion');
  const kind = stringAt(body, 'kind');
  if (apiVersion !== undefined && groupOf(apiVersion) !== target.info.group) {
    causes.push({ field: 'apiVersion', reason: 'FieldValueInvalid', message: `Invalid value: ${JSON.stringify(apiVersion)}: this path serves group ${JSON.stringify(target.info.group)}` });
  }
  if (kind !== undefined && kind !== target.info.kind) {
    causes.push({ field: 'kind', reason: 'FieldValueInvalid', message: `Invalid value: ${JSON.stringify(kind)}: this path serves ${target.info.kind}` });
  }
  causes.push(...unknownFields(body, target));
  const namespace = stringAt(body, 'metadata', 'namespace');
  if (namespace !== undefined && namespace !== target.namespace) {
    causes.push({ field: 'metadata.namespace', reason: 'FieldValueInvalid', message: `Invalid value: ${JSON.stringify(namespace)}: does not match the namespace of the request (${target.namespace})` });
  }
  if (causes.length > 0) {
    const name = stringAt(body, 'metadata', 'name') ?? '';
    throw new InvalidError(`${target.info.kind} "${name}" is invalid: ${causes.map((c) => `${c.field}: ${c.message}`).join(', ')}`, {
      causes,
      details: { group: target.info.group, kind: target.info.kind, name },
    });
  }
  return body;
}
