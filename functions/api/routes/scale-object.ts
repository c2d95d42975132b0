import type { ScaleSubresource } from '../../../shared/contracts/kinds.js';
import { setAt } from '../../../shared/contracts/conversion/json-paths.js';
import { type JsonRecord, clone, isRecord, valueAt } from '../../../shared/contracts/json.js';
import type { KubeObject } from '../../../shared/contracts/object.js';
import { BadRequestError } from '../../../shared/errors/index.js';

/**
 * The scale subresource of a kind that declares one (`kubectl scale`, `clusterctl`-free scaling,
 * the cluster autoscaler's Cluster API provider): an autoscaling/v1 Scale read from and written
 * to the object's replica fields, as the API server serves it for custom resources
 * (k8s.io/apiextensions-apiserver registry/customresource ScaleREST). A write changes only the
 * desired replicas and then goes through the object's own admission like any update.
 */

export const SCALE_API_VERSION = 'autoscaling/v1';
const MAX_INT32 = 2_147_483_647;

/** What a Scale written by a client asks for. */
export interface ScaleChange {
  replicas: number;
  /** A precondition: the object's resourceVersion the client read. */
  resourceVersion?: string;
}

/** The Scale of an object, shaped as Go's autoscalingv1.Scale encodes (zero spec replicas omitted). */
export function scaleOf(object: KubeObject, scale: ScaleSubresource): JsonRecord {
  const specReplicas = integerAt(object, scale.specReplicasPath) ?? 0;
  const selector = scale.labelSelectorPath === undefined ? undefined : valueAt(object, ...pathSegments(scale.labelSelectorPath));
  const { name, namespace, uid, resourceVersion, creationTimestamp } = object.metadata;
  return {
    kind: 'Scale',
    apiVersion: SCALE_API_VERSION,
    metadata: {
      name,
      ...(namespace !== undefined && namespace !== '' ? { namespace } : {}),
      ...(uid !== undefined ? { uid } : {}),
      ...(resourceVersion !== undefined ? { resourceVersion } : {}),
      ...(creationTimestamp !== undefined ? { creationTimestamp } : {}),
    },
    spec: specReplicas !== 0 ? { replicas: specReplicas } : {},
    status: {
      replicas: integerAt(object, scale.statusReplicasPath) ?? 0,
      ...(typeof selector === 'string' && selector !== '' ? { selector } : {}),
    },
  };
}

/**
 * Reads a Scale body (a PUT, or a patch applied to the current Scale). A missing `spec.replicas`
 * is zero, as Go decodes it; a negative count is left to the object's own validation, which names
 * its field.
 */
export function scaleChangeOf(body: unknown, target: { name: string; namespace?: string }): ScaleChange {
  if (!isRecord(body)) throw new BadRequestError('the request body is not a Scale object');
  const apiVersion = body.apiVersion;
  if (apiVersion !== undefined && apiVersion !== SCALE_API_VERSION) {
    throw new BadRequestError(`the API version in the data (${shortText(apiVersion)}) does not match the expected API version (${SCALE_API_VERSION})`, {
      causes: [{ field: 'apiVersion', reason: 'FieldValueInvalid', message: `must be ${SCALE_API_VERSION}` }],
    });
  }
  if (body.kind !== undefined && body.kind !== 'Scale') {
    throw new BadRequestError(`the kind in the data (${shortText(body.kind)}) does not match the expected kind (Scale)`, {
      causes: [{ field: 'kind', reason: 'FieldValueInvalid', message: 'must be Scale' }],
    });
  }
  const metadata = body.metadata === undefined ? {} : body.metadata;
  if (!isRecord(metadata)) throw fieldError('metadata', 'must be an object');
  checkMatches(metadata.name, target.name, 'name');
  checkMatches(metadata.namespace, target.namespace ?? '', 'namespace');
  const resourceVersion = metadata.resourceVersion;
  if (resourceVersion !== undefined && typeof resourceVersion !== 'string') throw fieldError('metadata.resourceVersion', 'must be a string');
  const spec = body.spec === undefined || body.spec === null ? {} : body.spec;
  if (!isRecord(spec)) throw fieldError('spec', 'must be an object');
  const replicas = spec.replicas === undefined || spec.replicas === null ? 0 : spec.replicas;
  if (typeof replicas !== 'number' || !Number.isInteger(replicas) || Math.abs(replicas) > MAX_INT32) {
    throw fieldError('spec.replicas', 'must be a 32-bit integer');
  }
  return { replicas, ...(resourceVersion !== undefined && resourceVersion !== '' ? { resourceVersion } : {}) };
}

/** The object with the Scale's desired replicas (and its resourceVersion precondition, if any). */
export function withScale(object: KubeObject, scale: ScaleSubresource, change: ScaleChange): KubeObject {
  const updated = clone(object);
  const root: unknown = updated;
  if (isRecord(root)) setAt(root, pathSegments(scale.specReplicasPath), change.replicas);
  if (change.resourceVersion !== undefined) updated.metadata.resourceVersion = change.resourceVersion;
  return updated;
}

function checkMatches(value: unknown, expected: string, field: 'name' | 'namespace'): void {
  if (value === undefined || value === '' || value === expected) return;
  const where = field === 'name' ? 'name in the URL' : 'namespace in the URL';
  throw new BadRequestError(`the ${field} of the object (${shortText(value)}) does not match the ${where} (${expected})`, {
    causes: [{ field: `metadata.${field}`, reason: 'FieldValueInvalid', message: `does not match the ${where}` }],
  });
}

function integerAt(object: KubeObject, path: string): number | undefined {
  const value = valueAt(object, ...pathSegments(path));
  return typeof value === 'number' && Number.isInteger(value) ? value : undefined;
}

/** `.spec.replicas` → ['spec', 'replicas'] (the leading dot is optional, as in the CRD). */
function pathSegments(path: string): string[] {
  return (path.startsWith('.') ? path.slice(1) : path).split('.');
}

function shortText(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value) ?? String(value);
  return text.length > 64 ? `${text.slice(0, 64)}…` : text;
}

function fieldError(field: string, message: string): BadRequestError {
  return new BadRequestError(`Scale.${SCALE_API_VERSION} is invalid: ${field}: ${message}`, { causes: [{ field, reason: 'FieldValueInvalid', message }] });
}
