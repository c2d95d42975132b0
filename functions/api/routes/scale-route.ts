import { MethodNotAllowedError, NotFoundError } from '../../../shared/errors/index.js';
import { parseObjectBody, parsePatchBody } from '../body.js';
import { updateManagerOf } from '../apply/update-ownership.js';
import { type ApiResponse, jsonResponse } from '../http.js';
import { applyJsonPatch } from '../patch/json-patch.js';
import { applyMergePatch } from '../patch/merge-patch.js';
import { type Call, type NamedPath, getOrThrow, writeObject } from './object-writes.js';
import { scaleChangeOf, scaleOf, withScale } from './scale-object.js';

/** `/scale`: get, replace or patch the Scale; a write sets the desired replicas and is an update of the object. */
export async function dispatchScale(path: NamedPath, call: Call): Promise<ApiResponse> {
  const scale = path.info.scale;
  if (scale === undefined) throw new NotFoundError(`the server could not find the requested resource: ${path.info.plural}/scale`);
  const method = call.request.method;
  if (method !== 'GET' && method !== 'PUT' && method !== 'PATCH') throw new MethodNotAllowedError(`method ${method} is not allowed on ${path.info.plural}/scale`);
  const body = method === 'PUT' ? parseObjectBody(call.request) : undefined;
  const patchBody = method === 'PATCH' ? parsePatchBody(call.request) : undefined;
  const old = await getOrThrow(call.deps.store, path.info, path.namespace, path.name);
  if (method === 'GET') return jsonResponse(200, scaleOf(old, scale));
  const current = scaleOf(old, scale);
  const requested = patchBody === undefined ? body : patchBody.type === 'application/json-patch+json' ? applyJsonPatch(current, patchBody.patch) : applyMergePatch(current, patchBody.patch);
  const change = scaleChangeOf(requested, { name: path.name, ...(path.info.namespaced ? { namespace: path.namespace } : {}) });
  const updated = withScale(old, scale, change);
  const objectPath: NamedPath = { info: path.info, version: path.version, name: path.name, namespace: path.namespace };
  return jsonResponse(200, scaleOf(await writeObject(updated, old, objectPath, call, { manager: updateManagerOf(call.request), subresource: 'scale' }), scale));
}

