import type { JsonRecord } from '../../../shared/contracts/json.js';
import { UnsupportedMediaTypeError, isAlreadyExists, isConflict } from '../../../shared/errors/index.js';
import { applyOptions, checkApplyIdentity } from '../apply/apply-request.js';
import { serverSideApply } from '../apply/server-side-apply.js';
import { parseObjectBody } from '../body.js';
import { type ApiResponse, jsonResponse } from '../http.js';
import { admitAgainstStore } from '../store-admission.js';
import { type Call, type NamedPath, keyFor, rfc3339Now, shown, target, writeObject } from './object-writes.js';

/** Attempts of an apply that lost a race with another write (the API server retries them too). */
const APPLY_ATTEMPTS = 5;

/** Server-side apply: creates the object when it does not exist, else updates it (functions/api/apply). */
export async function apply(path: NamedPath, call: Call): Promise<ApiResponse> {
  if (path.subresource !== undefined) {
    throw new UnsupportedMediaTypeError(`server-side apply is served for whole objects, not for ${path.info.plural}/${path.subresource}: use a merge or JSON patch`);
  }
  const options = applyOptions(call.request.query);
  const config = checkApplyIdentity(parseObjectBody(call.request), path.info, path.name, path.info.namespaced ? path.namespace : undefined);
  call.bodies.push(config);
  for (let attempt = 1; ; attempt++) {
    try {
      return await applyOnce(path, call, config, options);
    } catch (error) {
      const lostRace = (isConflict(error) && !error.causes.some((c) => c.reason === 'FieldManagerConflict')) || isAlreadyExists(error);
      if (!lostRace || attempt >= APPLY_ATTEMPTS) throw error;
    }
  }
}

async function applyOnce(path: NamedPath, call: Call, config: JsonRecord, options: { manager: string; force: boolean }): Promise<ApiResponse> {
  const live = await call.deps.store.get(keyFor(path.info, path.namespace, path.name));
  const now = rfc3339Now();
  const namespace = path.info.namespaced ? path.namespace : undefined;
  const applied = serverSideApply({ info: path.info, live, config, name: path.name, namespace, manager: options.manager, force: options.force, now });
  if (live) return jsonResponse(200, shown(await writeObject(applied, live, path, call), path, call));
  const admitted = await admitAgainstStore(call.deps.admission.create(applied, target(path, path.namespace)), undefined, call.deps.store);
  if (call.dryRun) return jsonResponse(201, shown(admitted, path, call));
  return jsonResponse(201, shown(await call.deps.store.create(admitted), path, call));
}

