import { isRecord, stringAt } from '../../shared/contracts/json.js';
import { type KubeObject, type StoredObject, groupOf, versionOf } from '../../shared/contracts/object.js';
import { BadRequestError, InvalidError, type StatusCause } from '../../shared/errors/index.js';
import type { Admission, AdmissionTarget } from './admission-port.js';

const TOP_LEVEL = new Set(['apiVersion', 'kind', 'metadata', 'spec', 'status', 'data', 'stringData', 'type', 'immutable']);
const METADATA = new Set([
  'name', 'generateName', 'namespace', 'uid', 'resourceVersion', 'generation', 'creationTimestamp', 'deletionTimestamp',
  'deletionGracePeriodSeconds', 'finalizers', 'ownerReferences', 'labels', 'annotations', 'managedFields', 'selfLink',
]);

/**
 * Checks every kind shares, against the path: the body is an object whose apiVersion and kind
 * match the path, with a name and the path's namespace, and no unknown top-level fields. Kind
 * schemas (defaults, validation, immutability) run after it, through `kindAdmission`.
 */
export function checkEnvelope(body: unknown, target: AdmissionTarget): KubeObject {
  if (!isRecord(body)) throw new BadRequestError('the request body must be a JSON or YAML object');
  const causes: StatusCause[] = [];
  const apiVersion = stringAt(body, 'apiVersion');
  const kind = stringAt(body, 'kind');
  if (apiVersion === undefined) causes.push({ field: 'apiVersion', reason: 'FieldValueRequired', message: 'Required value' });
  else if (groupOf(apiVersion) !== target.info.group || !target.info.versions.includes(versionOf(apiVersion))) {
    causes.push({ field: 'apiVersion', reason: 'FieldValueInvalid', message: `Invalid value: ${JSON.stringify(apiVersion)}: must be ${target.info.group ? `${target.info.group}/` : ''}${target.info.versions.join(' or ')} for this path` });
  }
  if (kind === undefined) causes.push({ field: 'kind', reason: 'FieldValueRequired', message: 'Required value' });
  else if (kind !== target.info.kind) causes.push({ field: 'kind', reason: 'FieldValueInvalid', message: `Invalid value: ${JSON.stringify(kind)}: the path serves ${target.info.kind}` });
  for (const field of Object.keys(body)) {
    if (!TOP_LEVEL.has(field)) causes.push({ field, reason: 'FieldValueInvalid', message: `unknown field ${JSON.stringify(field)}` });
  }
  const metadata = body.metadata;
  if (!isRecord(metadata)) {
    causes.push({ field: 'metadata', reason: 'FieldValueRequired', message: 'Required value' });
  } else {
    for (const field of Object.keys(metadata)) {
      if (!METADATA.has(field)) causes.push({ field: `metadata.${field}`, reason: 'FieldValueInvalid', message: `unknown field ${JSON.stringify(field)}` });
    }
    if (typeof metadata.name !== 'string' || metadata.name === '') causes.push({ field: 'metadata.name', reason: 'FieldValueRequired', message: 'Required value: name is required' });
    if (metadata.namespace !== undefined && metadata.namespace !== target.namespace) {
      causes.push({ field: 'metadata.namespace', reason: 'FieldValueInvalid', message: `Invalid value: ${JSON.stringify(metadata.namespace)}: does not match the namespace of the request (${target.namespace})` });
    }
  }
  if (causes.length > 0 || !isRecord(metadata) || apiVersion === undefined || kind === undefined) {
    const name = isRecord(metadata) && typeof metadata.name === 'string' ? metadata.name : '';
    throw new InvalidError(`${target.info.kind}${target.info.group ? `.${target.info.group}` : ''} "${name}" is invalid: ${causes.map((c) => `${c.field}: ${c.message}`).join(', ')}`, {
      causes,
      details: { group: target.info.group, kind: target.info.kind, name },
    });
  }
  return { ...body, apiVersion, kind, metadata: { ...metadata, name: String(metadata.name), namespace: target.namespace } };
}

/** Kind-specific admission: converts, defaults and validates the envelope-checked object. */
export interface KindAdmission {
  create(object: KubeObject): KubeObject;
  update(object: KubeObject, old: StoredObject): KubeObject;
}

/** Envelope checks, then the kind's own rules; server-owned metadata comes from the stored object. */
export function admissionWith(kindAdmission: KindAdmission): Admission {
  return {
    create: (body, target) => kindAdmission.create(checkEnvelope(body, target)),
    update: (body, old, target) => kindAdmission.update(checkEnvelope(body, target), old),
    updateStatus: (body, old, target) => {
      const object = checkEnvelope(body, target);
      return { ...old, status: object.status ?? {}, metadata: { ...old.metadata, resourceVersion: object.metadata.resourceVersion ?? '' } };
    },
  };
}

/** Until kind schemas are wired: storage-version apiVersion, nothing else. */
export const envelopeOnlyAdmission: KindAdmission = {
  create: (object) => object,
  update: (object) => object,
};
