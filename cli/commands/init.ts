import { parseArgs } from 'node:util';
import { builtinInventory, CLUSTERCTL_API_VERSION, inventoryName, inventoryObjects } from '../../shared/contracts/clusterctl/inventory.js';
import { deepEqual, isRecord } from '../../shared/contracts/json.js';
import type { KubeObject } from '../../shared/contracts/object.js';
import { isAlreadyExistsStatus } from '../client/api-status-error.js';
import { CONNECTION_OPTIONS, openSession, type Session } from '../client/session.js';
import { externalProvider } from '../clusterctl/external-provider.js';
import { defineCommand } from '../io/define-command.js';

/**
 * `capless init [--provider TYPE/NAME:VERSION=PATH]…`: records clusterctl's Provider inventory —
 * capless's built-in providers and any external ones — with each provider's metadata. Idempotent:
 * a second run changes nothing. Every external provider is checked before anything is written.
 */
export const initCommand = defineCommand('init', 'record the clusterctl Provider inventory (init [--provider TYPE/NAME:VERSION=PATH]...)', async (args, io) => {
  const { values } = parseArgs({ args, options: { ...CONNECTION_OPTIONS, provider: { type: 'string', multiple: true, default: [] } }, strict: true });
  const externals = (values.provider ?? []).map((spec) => externalProvider(spec, io.cwd));
  const session = await openSession(values, io);
  for (const entry of [...builtinInventory(), ...externals]) {
    const { provider, metadata } = inventoryObjects(entry);
    const name = inventoryName(entry.type, entry.providerName);
    const providerWritten = await upsert(session, 'providers', provider, ['providerName', 'type', 'version']);
    const metadataWritten = await upsert(session, 'metadata', metadata, ['releaseSeries']);
    const changed = providerWritten || metadataWritten;
    const what = `provider="${name}" version="${entry.version}" targetNamespace="${entry.namespace}"`;
    io.stdout.write(changed ? `Installing ${what}\n` : `Already installed ${what}\n`);
  }
  return 0;
});

/** Creates the object, or replaces it when the fields differ; true when something was written. */
async function upsert(session: Session, plural: string, object: KubeObject, fields: string[]): Promise<boolean> {
  const collection = `/apis/${CLUSTERCTL_API_VERSION}/namespaces/${object.metadata.namespace}/${plural}`;
  try {
    await session.client.request('POST', collection, { body: object });
    return true;
  } catch (error) {
    if (!isAlreadyExistsStatus(error)) throw error;
  }
  const path = `${collection}/${object.metadata.name}`;
  const current = await session.client.get(path);
  if (!isRecord(current) || !isRecord(current.metadata)) throw new Error(`unexpected answer for ${path}`);
  const source: Record<string, unknown> = { ...object };
  const same = fields.every((field) => deepEqual(current[field], source[field])) && deepEqual(current.metadata.annotations ?? {}, object.metadata.annotations ?? {});
  if (same) return false;
  await session.client.request('PUT', path, { body: { ...object, metadata: { ...object.metadata, resourceVersion: current.metadata.resourceVersion } } });
  return true;
}
