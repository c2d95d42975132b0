import type { KindInfo, KindRegistry } from '../../../shared/contracts/kinds.js';
import { isRecord, stringAt } from '../../../shared/contracts/json.js';
import type { KubeObject, ObjectKey, StoredObject } from '../../../shared/contracts/object.js';
import { DEFAULT_NAMESPACE } from '../../../shared/contracts/object.js';
import {
  BadRequestError,
  ConflictError,
  ForbiddenError,
  InvalidError,
  MethodNotAllowedError,
  NotFoundError,
} from '../../../shared/errors/index.js';
import type { ListQuery, ObjectStore, PropagationPolicy } from '../../../shared/ports/object-store.js';
import { parseLabelSelector } from '../../../shared/store/label-selector.js';
import type { Admission, AdmissionTarget } from '../admission-port.js';
import { parseObjectBody, parsePatchBody } from '../body.js';
import { type ApiRequest, type ApiResponse, jsonResponse } from '../http.js';
import { applyJsonPatch } from '../patch/json-patch.js';
import { applyMergePatch } from '../patch/merge-patch.js';
import { type ResourcePath, apiVersionOf } from '../paths.js';
import type { Principal } from '../auth.js';
import { successStatus } from '../status.js';

export interface ResourceDeps {
  store: ObjectStore;
  kinds: KindRegistry;
  admission: Admission;
}

/** Create, read, list, replace, patch and delete objects of one kind (Kubernetes REST verbs). */
export async function handleResource(
  request: ApiRequest,
  path: ResourcePath,
  principal: Principal,
  deps: ResourceDeps,
): Promise<ApiResponse> {
  authorize(request.method, path, principal);
  const dryRun = request.query.get('dryRun') === 'All';
  switch (request.method) {
    case 'GET':
      return path.name === undefined ? list(request, path, deps) : read(path, deps);
    case 'POST':
      if (path.name !== undefined) throw new MethodNotAllowedError('POST is not allowed on a named object');
      return create(request, path, deps, dryRun);
    case 'PUT':
      return replace(request, requireName(path), deps, dryRun);
    case 'PATCH':
      return patch(request, requireName(path), deps, dryRun);
    case 'DELETE':
      return remove(request, requireName(path), deps, dryRun);
    default:
      throw new MethodNotAllowedError(`method ${request.method} is not allowed`);
  }
}

function authorize(method: string, path: ResourcePath, principal: Principal): void {
  if (path.info.sensitive && method === 'GET' && path.name !== undefined && !principal.canReadSecrets) {
    throw new ForbiddenError(`${path.info.plural} "${path.name}" is forbidden: reading secrets needs the secrets:read permission`, {
      details: { group: path.info.group, kind: path.info.plural, name: path.name },
    });
  }
}

type NamedPath = ResourcePath & { name: string; namespace: string };

function requireName(path: ResourcePath): NamedPath {
  if (path.name === undefined || path.namespace === undefined) {
    throw new MethodNotAllowedError('this verb needs a namespaced object name in the path');
  }
  return { ...path, name: path.name, namespace: path.namespace };
}

function keyFor(info: KindInfo, namespace: string, name: string): ObjectKey {
  return { group: info.group, kind: info.kind, namespace, name };
}

function target(path: ResourcePath, namespace: string): AdmissionTarget {
  return { info: path.info, version: path.version, namespace, ...(path.name !== undefined ? { name: path.name } : {}) };
}

async function read(path: ResourcePath, deps: ResourceDeps): Promise<ApiResponse> {
  const object = await getOrThrow(deps.store, path.info, path.namespace ?? DEFAULT_NAMESPACE, path.name ?? '');
  return jsonResponse(200, present(object, path));
}

async function getOrThrow(store: ObjectStore, info: KindInfo, namespace: string, name: string): Promise<StoredObject> {
  const object = await store.get(keyFor(info, namespace, name));
  if (!object) {
    throw new NotFoundError(`${info.plural}${info.group ? `.${info.group}` : ''} "${name}" not found`, {
      details: { group: info.group, kind: info.plural, name },
    });
  }
  return object;
}

async function list(request: ApiRequest, path: ResourcePath, deps: ResourceDeps): Promise<ApiResponse> {
  const query: ListQuery = { group: path.info.group, kind: path.info.kind };
  if (path.namespace !== undefined) query.namespace = path.namespace;
  const selector = request.query.get('labelSelector');
  if (selector) query.labelSelector = parseLabelSelector(selector);
  applyFieldSelector(request.query.get('fieldSelector'), query);
  const limit = request.query.get('limit');
  if (limit) {
    const n = Number(limit);
    if (!Number.isInteger(n) || n < 0) throw new BadRequestError(`limit must be a non-negative integer, got ${JSON.stringify(limit)}`);
    if (n > 0) query.limit = n;
  }
  const token = request.query.get('continue');
  if (token) query.continue = token;
  const result = await deps.store.list(query);
  return jsonResponse(200, {
    apiVersion: apiVersionOf(path.info, path.version),
    kind: `${path.info.kind}List`,
    metadata: { resourceVersion: '', ...(result.continue ? { continue: result.continue } : {}) },
    items: result.items.map((item) => redactForList(present(item, path), path.info)),
  });
}

function applyFieldSelector(selector: string | null, query: ListQuery): void {
  if (!selector) return;
  for (const term of selector.split(',')) {
    const match = /^(metadata\.name|metadata\.namespace)(==|=)(.*)$/.exec(term.trim());
    if (!match) {
      throw new BadRequestError(`field selector ${JSON.stringify(term)} is not supported: only metadata.name and metadata.namespace`, {
        causes: [{ field: 'fieldSelector', reason: 'FieldValueNotSupported', message: term }],
      });
    }
    if (match[1] === 'metadata.name') query.name = match[3] ?? '';
    else query.namespace = match[3] ?? '';
  }
}

/** Secret data never appears in lists (ARCHITECTURE.md "Store semantics"). */
function redactForList(object: KubeObject, info: KindInfo): KubeObject {
  if (!info.sensitive) return object;
  const { data: _data, ...rest } = object;
  return rest;
}

/** The object as the client asked for it: the stored object, labelled with the path's version. */
function present(object: StoredObject, path: ResourcePath): KubeObject {
  return { ...object, apiVersion: apiVersionOf(path.info, path.info.versions[0] ?? path.version) };
}

async function create(request: ApiRequest, path: ResourcePath, deps: ResourceDeps, dryRun: boolean): Promise<ApiResponse> {
  const body = parseObjectBody(request);
  const namespace = path.namespace ?? namespaceOfBody(body);
  const admitted = deps.admission.create(body, target(path, namespace));
  if (dryRun) return jsonResponse(201, admitted);
  const stored = await deps.store.create(admitted);
  return jsonResponse(201, present(stored, path));
}

function namespaceOfBody(body: unknown): string {
  return stringAt(body, 'metadata', 'namespace') ?? DEFAULT_NAMESPACE;
}

async function replace(request: ApiRequest, path: NamedPath, deps: ResourceDeps, dryRun: boolean): Promise<ApiResponse> {
  const body = parseObjectBody(request);
  const bodyName = stringAt(body, 'metadata', 'name');
  if (bodyName !== undefined && bodyName !== path.name) {
    throw new BadRequestError(`the name of the object (${bodyName}) does not match the name in the URL (${path.name})`, {
      causes: [{ field: 'metadata.name', reason: 'FieldValueInvalid', message: 'does not match the URL' }],
    });
  }
  if (!stringAt(body, 'metadata', 'resourceVersion')) {
    throw new InvalidError(`${path.info.kind} "${path.name}" is invalid: metadata.resourceVersion: Invalid value: 0: must be specified for an update`, {
      causes: [{ field: 'metadata.resourceVersion', reason: 'FieldValueInvalid', message: 'must be specified for an update' }],
    });
  }
  const old = await getOrThrow(deps.store, path.info, path.namespace, path.name);
  return write(body, old, path, deps, dryRun);
}

async function write(body: unknown, old: StoredObject, path: NamedPath, deps: ResourceDeps, dryRun: boolean): Promise<ApiResponse> {
  const t = target(path, path.namespace);
  const status = path.subresource === 'status';
  const admitted = status ? deps.admission.updateStatus(body, old, t) : deps.admission.update(body, old, t);
  if (admitted.metadata.resourceVersion !== old.metadata.resourceVersion) {
    throw new ConflictError(`Operation cannot be fulfilled on ${path.info.plural} "${path.name}": the object has been modified; please apply your changes to the latest version and try again`, {
      details: { group: path.info.group, kind: path.info.plural, name: path.name },
    });
  }
  if (dryRun) return jsonResponse(200, admitted);
  const stored = status ? await deps.store.updateStatus(admitted) : await deps.store.update(admitted);
  return jsonResponse(200, present(stored, path));
}

async function patch(request: ApiRequest, path: NamedPath, deps: ResourceDeps, dryRun: boolean): Promise<ApiResponse> {
  const { type, patch: patchBody } = parsePatchBody(request);
  const old = await getOrThrow(deps.store, path.info, path.namespace, path.name);
  const current: KubeObject = structuredClone(old);
  const patched = type === 'application/json-patch+json' ? applyJsonPatch(current, patchBody) : applyMergePatch(current, patchBody);
  if (!isRecord(patched)) throw new BadRequestError('the patch did not produce an object');
  const metadata = isRecord(patched.metadata) ? patched.metadata : {};
  // A patch without a resourceVersion applies to the version it was read against.
  const body = { ...patched, metadata: { ...metadata, resourceVersion: stringAt(metadata, 'resourceVersion') ?? old.metadata.resourceVersion } };
  return write(body, old, path, deps, dryRun);
}

async function remove(request: ApiRequest, path: NamedPath, deps: ResourceDeps, dryRun: boolean): Promise<ApiResponse> {
  const options = deleteOptions(request);
  const existing = await getOrThrow(deps.store, path.info, path.namespace, path.name);
  if (dryRun) return jsonResponse(200, present(existing, path));
  const result = await deps.store.delete(keyFor(path.info, path.namespace, path.name), options);
  if (result.removed) {
    return jsonResponse(200, successStatus({ name: path.name, group: path.info.group, kind: path.info.plural }));
  }
  return jsonResponse(200, present(result.object, path));
}

function deleteOptions(request: ApiRequest): { propagationPolicy?: PropagationPolicy; resourceVersion?: string } {
  let body: unknown = {};
  if (request.body.trim() !== '') {
    try {
      body = JSON.parse(request.body);
    } catch {
      throw new BadRequestError('the DeleteOptions body is not valid JSON');
    }
  }
  const policy = request.query.get('propagationPolicy') ?? stringAt(body, 'propagationPolicy');
  const resourceVersion = stringAt(body, 'preconditions', 'resourceVersion');
  if (policy !== undefined && policy !== 'Background' && policy !== 'Foreground' && policy !== 'Orphan') {
    throw new BadRequestError(`propagationPolicy must be Background, Foreground or Orphan, got ${JSON.stringify(policy)}`, {
      causes: [{ field: 'propagationPolicy', reason: 'FieldValueNotSupported', message: String(policy) }],
    });
  }
  return { ...(policy !== undefined ? { propagationPolicy: policy } : {}), ...(resourceVersion ? { resourceVersion } : {}) };
}
