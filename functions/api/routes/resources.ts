import { isRecord, stringAt } from '../../../shared/contracts/json.js';
import { DEFAULT_NAMESPACE, type StoredObject } from '../../../shared/contracts/object.js';
import { BadRequestError, InvalidError, MethodNotAllowedError } from '../../../shared/errors/index.js';
import { APPLY_PATCH_TYPE, checkNonApplyOptions } from '../apply/apply-request.js';
import { updateManagerOf } from '../apply/update-ownership.js';
import type { Principal } from '../auth.js';
import { mediaType, parseObjectBody, parsePatchBody } from '../body.js';
import { type ApiRequest, type ApiResponse, jsonResponse } from '../http.js';
import { checkUntrustedStructure } from '../input/structure-limits.js';
import { applyJsonPatch } from '../patch/json-patch.js';
import { applyMergePatch } from '../patch/merge-patch.js';
import { MAX_PATCHED_OBJECT_BYTES, jsonBytes } from '../patch/patch-budget.js';
import type { ResourcePath } from '../paths.js';
import { negotiate } from '../representation/accept.js';
import { tableOf } from '../representation/table.js';
import { authorizeSecretVerb, redactStatus, secretValues, verbOf } from '../secret-access.js';
import { statusFromError, successStatus } from '../status.js';
import { admitAgainstStore } from '../store-admission.js';
import { isWatch } from '../watch/watch-options.js';
import { apply } from './apply-route.js';
import { deleteOptions } from './delete-options.js';
import { list } from './list.js';
import { assertNamespaceEmpty, isNamespaceKind } from './namespace-deletion.js';
import {
  type Call,
  type NamedPath,
  type ResourceDeps,
  checkManagedFields,
  getOrThrow,
  keyFor,
  requireName,
  shown,
  target,
  withStoredManagedFields,
  writeObject,
} from './object-writes.js';
import { dispatchScale } from './scale-route.js';

export type { ResourceDeps } from './object-writes.js';

/** Create, read, list, replace, patch and delete objects of one kind (Kubernetes REST verbs). */
export async function handleResource(request: ApiRequest, path: ResourcePath, principal: Principal, deps: ResourceDeps): Promise<ApiResponse> {
  authorizeSecretVerb(path.info, verbOf(request.method, path.name !== undefined), principal, path.name);
  const call: Call = { request, principal, deps, dryRun: dryRunOf(request), bodies: [] };
  if (!path.info.sensitive) return dispatch(path, call);
  try {
    return await dispatch(path, call);
  } catch (error) {
    const status = statusFromError(error);
    if (status.code >= 500) throw error;
    const stored = path.name !== undefined && path.namespace !== undefined ? await deps.store.get(keyFor(path.info, path.namespace, path.name)) : undefined;
    const redacted = redactStatus(status, secretValues(stored, ...call.bodies, ...patchValues(call.bodies)));
    return jsonResponse(redacted.code, redacted);
  }
}

function dispatch(path: ResourcePath, call: Call): Promise<ApiResponse> {
  if (path.info.readOnly && call.request.method !== 'GET') {
    throw new MethodNotAllowedError(`${path.info.plural}.${path.info.group} are served read-only: capless has no controller for ${path.info.kind} (${call.request.method} is not allowed)`);
  }
  if (path.subresource === 'scale') return dispatchScale(requireName(path), call);
  switch (call.request.method) {
    case 'GET':
      return path.name === undefined ? list(call.request, path, call.principal, call.deps.store, call.deps.watches) : read(path, call);
    case 'POST':
      if (path.name !== undefined) throw new MethodNotAllowedError('POST is not allowed on a named object');
      return create(path, call);
    case 'PUT':
      return replace(requireName(path), call);
    case 'PATCH':
      return mediaType(call.request) === APPLY_PATCH_TYPE ? apply(requireName(path), call) : patch(requireName(path), call);
    case 'DELETE':
      return remove(requireName(path), call);
    default:
      throw new MethodNotAllowedError(`method ${call.request.method} is not allowed`);
  }
}

/** `dryRun=All` (Kubernetes' only value); any other value is refused rather than taken for a real write. */
function dryRunOf(request: ApiRequest): boolean {
  const values = request.query.getAll('dryRun');
  const unsupported = values.find((v) => v !== 'All');
  if (unsupported !== undefined) {
    throw new BadRequestError(`dryRun: Unsupported value: ${JSON.stringify(unsupported.slice(0, 64))}: supported values: "All"`, {
      causes: [{ field: 'dryRun', reason: 'FieldValueNotSupported', message: 'supported values: "All"' }],
    });
  }
  return values.length > 0;
}

async function read(path: ResourcePath, call: Call): Promise<ApiResponse> {
  if (isWatch(call.request.query)) {
    throw new MethodNotAllowedError(`watch a single object through its collection with fieldSelector=metadata.name=${path.name ?? ''}`);
  }
  const representation = negotiate(call.request.headers.accept, call.request.query, true);
  const object = await getOrThrow(call.deps.store, path.info, path.namespace ?? DEFAULT_NAMESPACE, path.name ?? '');
  if (representation.kind === 'table') return jsonResponse(200, tableOf(path.info, [shown(object, path, call)], representation, {}, Date.now()));
  return jsonResponse(200, shown(object, path, call));
}

async function create(path: ResourcePath, call: Call): Promise<ApiResponse> {
  const body = parseObjectBody(call.request);
  call.bodies.push(body);
  checkManagedFields(body, path);
  const namespace = path.namespace ?? namespaceOfBody(body);
  const admitted = await admitAgainstStore(call.deps.admission.create(body, target(path, namespace)), undefined, call.deps.store);
  if (call.dryRun) return jsonResponse(201, shown(admitted, path, call));
  const stored = await call.deps.store.create(admitted);
  return jsonResponse(201, shown(stored, path, call));
}

function namespaceOfBody(body: unknown): string {
  return stringAt(body, 'metadata', 'namespace') ?? DEFAULT_NAMESPACE;
}

async function replace(path: NamedPath, call: Call): Promise<ApiResponse> {
  const body = parseObjectBody(call.request);
  call.bodies.push(body);
  const bodyName = stringAt(body, 'metadata', 'name');
  if (bodyName !== undefined && bodyName !== path.name) {
    throw new BadRequestError(`the name of the object (${bodyName.slice(0, 253)}) does not match the name in the URL (${path.name})`, {
      causes: [{ field: 'metadata.name', reason: 'FieldValueInvalid', message: 'does not match the URL' }],
    });
  }
  if (!stringAt(body, 'metadata', 'resourceVersion')) {
    throw new InvalidError(`${path.info.kind} "${path.name}" is invalid: metadata.resourceVersion: Invalid value: 0: must be specified for an update`, {
      causes: [{ field: 'metadata.resourceVersion', reason: 'FieldValueInvalid', message: 'must be specified for an update' }],
    });
  }
  const old = await getOrThrow(call.deps.store, path.info, path.namespace, path.name);
  return write(withStoredManagedFields(body, old), old, path, call);
}

async function write(body: unknown, old: StoredObject, path: NamedPath, call: Call): Promise<ApiResponse> {
  const ownership = path.subresource === 'status' ? undefined : { manager: updateManagerOf(call.request) };
  return jsonResponse(200, shown(await writeObject(body, old, path, call, ownership), path, call));
}

async function patch(path: NamedPath, call: Call): Promise<ApiResponse> {
  checkNonApplyOptions(call.request.query);
  const { type, patch: patchBody } = parsePatchBody(call.request);
  call.bodies.push(patchBody);
  const old = await getOrThrow(call.deps.store, path.info, path.namespace, path.name);
  const patched = type === 'application/json-patch+json' ? applyJsonPatch(old, patchBody) : applyMergePatch(old, patchBody);
  if (!isRecord(patched)) throw new BadRequestError('the patch did not produce an object');
  checkUntrustedStructure(patched, 'the patched object');
  if (jsonBytes(patched) > MAX_PATCHED_OBJECT_BYTES) throw new BadRequestError(`the patched object is larger than ${MAX_PATCHED_OBJECT_BYTES} bytes`);
  const metadata = isRecord(patched.metadata) ? patched.metadata : {};
  // A patch without a resourceVersion applies to the version it was read against.
  const body = { ...patched, metadata: { ...metadata, resourceVersion: stringAt(metadata, 'resourceVersion') ?? old.metadata.resourceVersion } };
  return write(body, old, path, call);
}

async function remove(path: NamedPath, call: Call): Promise<ApiResponse> {
  const options = deleteOptions(call.request);
  const existing = await getOrThrow(call.deps.store, path.info, path.namespace, path.name);
  if (isNamespaceKind(path.info)) await assertNamespaceEmpty(call.deps.store, call.deps.kinds, path.name);
  if (call.dryRun) return jsonResponse(200, shown(existing, path, call));
  const result = await call.deps.store.delete(keyFor(path.info, path.namespace, path.name), options);
  if (result.removed) {
    return jsonResponse(200, successStatus({ name: path.name, group: path.info.group, kind: path.info.plural }));
  }
  return jsonResponse(200, shown(result.object, path, call));
}

/** String values a JSON patch writes: a Secret's error must not quote them either. */
function patchValues(bodies: unknown[]): unknown[] {
  return bodies.flatMap((body) =>
    Array.isArray(body) ? body.flatMap((op) => (isRecord(op) && typeof op.value === 'string' ? [{ stringData: { v: op.value } }] : [])) : [],
  );
}
