/**
 * Admission entry points, used by the API handler on every write: parse once, convert to the
 * storage version, default, validate, and (on update) enforce immutable fields. Every failure
 * is an ApiError: InvalidError (422) with `causes[].field`, or NotFoundError for an unserved kind.
 */

import { NotFoundError } from '../../errors/index.js';
import { convertReferences } from '../conversion/references.js';
import { defaultAutoscaledReplicas } from '../defaulting/autoscaler-replicas.js';
import { convertV1beta1Spec } from '../conversion/v1beta1-to-v1beta2.js';
import { clone, isRecord, type JsonRecord } from '../json.js';
import type { KindRegistry } from '../kinds.js';
import { CLUSTER_SCOPE_NAMESPACE, DEFAULT_NAMESPACE, type KubeObject } from '../object.js';
import { CLUSTERCTL_GROUP, CONVERTED_GROUPS } from '../schemas/groups.js';
import type { ValidationContext } from '../validation/context.js';
import { type FieldError, invalid } from '../validation/field-error.js';
import { validateImmutable } from '../validation/immutability.js';
import { type Envelope, readEnvelope } from './envelope.js';
import { invalidError } from './invalid-error.js';
import { dropNullFields, dropNullMetadataTimes } from './null-fields.js';
import { type StrategyResult, strategyFor } from './strategies.js';

export interface AdmissionContext extends ValidationContext {
  /** Kinds and versions capless serves; the first version of a kind is its storage version. */
  kinds: KindRegistry;
  /** Namespace of the request path. Objects without one get it (else `default`); a different one is an error. */
  namespace?: string;
}

/** clusterctl's metadata.yaml has no metadata at all; it is stored under this name. */
export const CLUSTERCTL_METADATA_NAME = 'metadata';

interface Prepared {
  env: Envelope;
  obj: JsonRecord;
  errors: FieldError[];
  /** The request was in the storage version: the vendored CRD schema (of that version) applies. */
  inStorageVersion: boolean;
}

function resolveNamespace(obj: JsonRecord, env: Envelope, ctx: AdmissionContext, errors: FieldError[]): string {
  const metadata = obj.metadata;
  if (isRecord(metadata) && !env.info.namespaced) {
    // Cluster-scoped: a namespace in the body is ignored, as Kubernetes does; the store keys it here.
    metadata.namespace = CLUSTER_SCOPE_NAMESPACE;
    return CLUSTER_SCOPE_NAMESPACE;
  }
  if (!isRecord(metadata)) return ctx.namespace ?? DEFAULT_NAMESPACE;
  const given = typeof metadata.namespace === 'string' && metadata.namespace !== '' ? metadata.namespace : undefined;
  if (given !== undefined && ctx.namespace !== undefined && given !== ctx.namespace) {
    errors.push(invalid('metadata.namespace', given, `does not match the namespace of the request "${ctx.namespace}"`));
  }
  const namespace = given ?? ctx.namespace ?? DEFAULT_NAMESPACE;
  metadata.namespace = namespace;
  return namespace;
}

/** Envelope check, then the object converted to the storage version (not yet schema-checked). */
function prepare(input: unknown, ctx: AdmissionContext): Prepared {
  const env = readEnvelope(input, ctx.kinds);
  const obj = clone(env.body);
  const errors: FieldError[] = [];
  if (env.group === CLUSTERCTL_GROUP && env.info.kind === 'Metadata' && obj.metadata === undefined) {
    obj.metadata = { name: CLUSTERCTL_METADATA_NAME };
  }
  const namespace = resolveNamespace(obj, env, ctx, errors);
  const storage = env.info.versions[0] ?? env.version;
  if (env.version !== storage && env.version === 'v1beta1' && CONVERTED_GROUPS.includes(env.group)) {
    convertV1beta1Spec(obj, env.group, env.info.kind);
  }
  obj.apiVersion = env.group ? `${env.group}/${storage}` : storage;
  if (env.group !== '') dropNullFields(obj.spec);
  dropNullMetadataTimes(obj.metadata);
  convertReferences(obj, env.group, env.info.kind, namespace, errors);
  return { env, obj, errors, inStorageVersion: env.version === storage };
}

function unwrap(result: StrategyResult, env: Envelope, earlier: readonly FieldError[] = []): KubeObject {
  const errors = [...earlier, ...(result.ok ? [] : result.errors)];
  if (errors.length > 0 || !result.ok) throw invalidError(env.info, env.name, errors);
  return result.object;
}

function identityErrors(obj: JsonRecord, old: KubeObject): FieldError[] {
  const errors: FieldError[] = [];
  const metadata = isRecord(obj.metadata) ? obj.metadata : {};
  if (obj.kind !== old.kind) errors.push(invalid('kind', obj.kind, `must be ${old.kind}`));
  if (metadata.name !== old.metadata.name) errors.push(invalid('metadata.name', metadata.name, 'field is immutable'));
  if (old.metadata.namespace !== undefined && metadata.namespace !== old.metadata.namespace) {
    errors.push(invalid('metadata.namespace', metadata.namespace, 'field is immutable'));
  }
  return errors;
}

/** A new object: status is dropped for kinds with a status subresource, as Kubernetes does. */
export function admitCreate(obj: unknown, ctx: AdmissionContext): KubeObject {
  const { env, obj: prepared, errors, inStorageVersion } = prepare(obj, ctx);
  if (env.info.statusSubresource) delete prepared.status;
  errors.push(...defaultAutoscaledReplicas(env.group, env.info.kind, prepared, undefined));
  return unwrap(strategyFor(env.group, env.info.kind).admit(prepared, ctx, inStorageVersion), env, errors);
}

/** A spec/metadata update: status stays the stored one; immutable fields are compared with `oldObj`. */
export function admitUpdate(newObj: unknown, oldObj: KubeObject, ctx: AdmissionContext): KubeObject {
  const { env, obj, errors, inStorageVersion } = prepare(newObj, ctx);
  errors.push(...identityErrors(obj, oldObj));
  errors.push(...defaultAutoscaledReplicas(env.group, env.info.kind, obj, oldObj));
  if (env.info.statusSubresource) {
    if (oldObj.status === undefined) delete obj.status;
    else obj.status = clone(oldObj.status);
  }
  const admitted = unwrap(strategyFor(env.group, env.info.kind).admit(obj, ctx, inStorageVersion), env, errors);
  const immutable = validateImmutable(env.group, admitted, oldObj);
  if (immutable.length > 0) throw invalidError(env.info, env.name, immutable);
  return admitted;
}

/** A `/status` write: only `status` is taken from `newObj` (plus its resourceVersion for the precondition). */
export function admitStatusUpdate(newObj: unknown, oldObj: KubeObject, ctx: AdmissionContext): KubeObject {
  const { env, obj, errors } = prepare(newObj, ctx);
  if (!env.info.statusSubresource) {
    throw new NotFoundError(`the server could not find the requested resource: ${env.info.kind} has no status subresource`, {
      details: { group: env.group, kind: env.info.kind, name: env.name },
    });
  }
  errors.push(...identityErrors(obj, oldObj));
  const resourceVersion = isRecord(obj.metadata) ? obj.metadata.resourceVersion : undefined;
  const merged: JsonRecord = {
    ...clone(oldObj),
    apiVersion: obj.apiVersion,
    metadata: {
      ...clone(oldObj.metadata),
      ...(typeof resourceVersion === 'string' ? { resourceVersion } : {}),
    },
  };
  if (obj.status === undefined) delete merged.status;
  else merged.status = obj.status;
  return unwrap(strategyFor(env.group, env.info.kind).parse(merged), env, errors);
}
