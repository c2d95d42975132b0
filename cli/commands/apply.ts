import { parseArgs } from 'node:util';
import { deepEqual, isRecord } from '../../shared/contracts/json.js';
import { applyMergePatch } from '../../functions/api/patch/merge-patch.js';
import { isAlreadyExistsStatus, isConflictStatus, isNotFoundStatus } from '../client/api-status-error.js';
import { type ManifestObject, readManifests } from '../client/manifests.js';
import { qualifiedName, resourcePath } from '../client/resource-types.js';
import { CONNECTION_OPTIONS, type Session, openSession } from '../client/session.js';
import { defineCommand } from '../io/define-command.js';
import { UsageError } from '../io/usage-error.js';

export type ApplyOutcome = 'created' | 'configured' | 'unchanged';

const MAX_CONFLICT_RETRIES = 5;

/** `capless apply -f FILE|DIR|-`: create each missing object (GET, then POST), or bring an existing one to the manifest (merge onto the live object, PUT at its resourceVersion, retry on conflict). */
export const applyCommand = defineCommand('apply', 'create or update objects from YAML manifests (-f FILE|DIR|-)', async (args, io) => {
  const { values } = parseArgs({ args, options: { ...CONNECTION_OPTIONS, filename: { type: 'string', short: 'f', multiple: true } }, strict: true });
  const sources = values.filename ?? [];
  if (sources.length === 0) throw new UsageError('apply needs -f FILE|DIR|-');
  const manifests: ManifestObject[] = [];
  for (const source of sources) manifests.push(...(await readManifests(source, io)));
  const session = await openSession(values, io);
  let failed = 0;
  for (const manifest of manifests) {
    try {
      const { outcome, label } = await applyOne(session, manifest);
      io.stdout.write(`${label} ${outcome}\n`);
    } catch (error) {
      failed++;
      io.stderr.write(`error: ${manifest.kind}/${manifest.name} (${manifest.source}): ${error instanceof Error ? error.message : String(error)}\n`);
    }
  }
  return failed === 0 ? 0 : 1;
});

export async function applyOne(session: Session, manifest: ManifestObject): Promise<{ outcome: ApplyOutcome; label: string }> {
  const type = await session.types.forKind(manifest.apiVersion, manifest.kind);
  const namespace = manifest.namespace ?? session.namespace;
  if (session.namespaceFromFlag && manifest.namespace !== undefined && manifest.namespace !== session.namespace) {
    throw new UsageError(`the namespace of the object (${manifest.namespace}) does not match the namespace on the request (${session.namespace})`);
  }
  const body = type.namespaced ? withNamespace(manifest.body, namespace) : manifest.body;
  const label = `${qualifiedName(type)}/${manifest.name}`;
  const path = resourcePath(type, namespace, manifest.name);
  if ((await readOrUndefined(session, path)) === undefined) {
    try {
      await session.client.request('POST', resourcePath(type, namespace), { body });
      return { outcome: 'created', label };
    } catch (error) {
      if (!isAlreadyExistsStatus(error)) throw error;
    }
  }
  for (let attempt = 0; ; attempt++) {
    const live = await session.client.get(path);
    const merged = applyMergePatch(live, withoutServerFields(body));
    if (deepEqual(merged, live)) return { outcome: 'unchanged', label };
    try {
      await session.client.request('PUT', path, { body: merged });
      return { outcome: 'configured', label };
    } catch (error) {
      if (!isConflictStatus(error) || attempt >= MAX_CONFLICT_RETRIES) throw error;
    }
  }
}

async function readOrUndefined(session: Session, path: string): Promise<unknown> {
  try {
    return await session.client.get(path);
  } catch (error) {
    if (isNotFoundStatus(error)) return undefined;
    throw error;
  }
}

function withNamespace(body: Record<string, unknown>, namespace: string): Record<string, unknown> {
  const metadata = isRecord(body.metadata) ? body.metadata : {};
  return { ...body, metadata: { ...metadata, namespace } };
}

/** A manifest does not get to set what the server owns (status is written by reconcilers through /status). */
function withoutServerFields(body: Record<string, unknown>): Record<string, unknown> {
  const { status: _status, ...rest } = body;
  const metadata = isRecord(rest.metadata) ? rest.metadata : {};
  const { resourceVersion: _rv, uid: _uid, creationTimestamp: _ct, generation: _g, deletionTimestamp: _dt, ...ownMetadata } = metadata;
  return { ...rest, metadata: ownMetadata };
}
