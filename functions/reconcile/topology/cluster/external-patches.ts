/**
 * ClusterClass patches, inline and external, in `spec.patches` order (Cluster API's
 * patches/engine.go): an inline patch runs its definitions; an external one calls its
 * `generatePatchesExtension` through the Runtime SDK (GeneratePatches) with every item and
 * applies the answered JSONPatch / JSONMergePatch to the item with that uid. After all patches,
 * each external `validateTopologyExtension` is asked (ValidateTopology). A Failure answer, an
 * unknown uid or an undecodable patch is a TopologyPatchError naming the patch (nothing is
 * written). Without a Runtime SDK caller an external patch is an error, never skipped.
 */

import { applyMergePatch } from '../../../api/patch/merge-patch.js';
import { isRecord, type JsonRecord } from '../../../../shared/contracts/json.js';
import type { ClusterClassPatch } from '../../../../shared/contracts/schemas/core/cluster-class.js';
import { generatePatchesResponseSchema } from '../../../../shared/contracts/hooks/topology-mutation.js';
import type { ExtensionCaller } from '../../../../shared/ports/runtime-extensions.js';
import { applyOperation, type PatchOperation } from './json-patch.js';
import { applyInlinePatch, type PatchItem, patchEnabled, TopologyPatchError } from './patches.js';

export interface ExternalPatchContext {
  caller: ExtensionCaller | undefined;
  namespace: string;
}

function stringField(record: Record<string, unknown>, key: string): string | undefined {
  const value = record[key];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function variableList(variables: JsonRecord): Array<{ name: string; value: unknown }> {
  return Object.entries(variables).map(([name, value]) => ({ name, value }));
}

function requestItems(items: readonly PatchItem[]) {
  return items.map((item, index) => ({
    uid: String(index),
    holderReference: { apiVersion: item.holder?.apiVersion ?? '', kind: item.holder?.kind ?? '', namespace: '', name: item.holder?.name ?? '', fieldPath: item.holder?.fieldPath ?? '' },
    object: item.template,
    variables: variableList(item.variables),
  }));
}

function caller(context: ExternalPatchContext, patch: ClusterClassPatch): ExtensionCaller {
  if (!context.caller) throw new TopologyPatchError(`patch "${patch.name}" is external and no Runtime SDK client is configured`);
  return context.caller;
}

function isOperation(value: unknown): value is PatchOperation {
  return isRecord(value) && (value.op === 'add' || value.op === 'replace' || value.op === 'remove') && typeof value.path === 'string';
}

function decodePatch(patchName: string, patchType: 'JSONPatch' | 'JSONMergePatch', base64: string, template: JsonRecord): JsonRecord {
  let document: unknown;
  try {
    document = JSON.parse(Buffer.from(base64, 'base64').toString('utf8'));
  } catch {
    throw new TopologyPatchError(`patch "${patchName}": the extension answered a patch that is not JSON`);
  }
  if (patchType === 'JSONMergePatch') {
    const merged = applyMergePatch(template, document);
    if (!isRecord(merged)) throw new TopologyPatchError(`patch "${patchName}": the merge patch does not leave an object`);
    return merged;
  }
  if (!Array.isArray(document)) throw new TopologyPatchError(`patch "${patchName}": a JSONPatch must be a list of operations`);
  let result = template;
  for (const operation of document) {
    if (!isOperation(operation)) throw new TopologyPatchError(`patch "${patchName}": unsupported JSON patch operation ${JSON.stringify(operation)}`);
    result = applyOperation(result, operation);
  }
  return result;
}

async function applyExternalPatch(patch: ClusterClassPatch, external: Record<string, unknown>, items: PatchItem[], context: ExternalPatchContext): Promise<PatchItem[]> {
  const extension = stringField(external, 'generatePatchesExtension');
  if (!extension) return items;
  const enabled = items.filter((item) => patchEnabled(patch, item.variables));
  if (enabled.length === 0) return items;
  const settings = isRecord(external.settings) ? external.settings : {};
  const result = await caller(context, patch).callExtension(extension, 'GeneratePatches', context.namespace, { settings, variables: [], items: requestItems(items) });
  if (result.status === 'Failure') throw new TopologyPatchError(`patch "${patch.name}" (external ${extension}) failed: ${result.message}`);
  const response = generatePatchesResponseSchema.safeParse(result.response);
  if (!response.success) throw new TopologyPatchError(`patch "${patch.name}" (external ${extension}): invalid GeneratePatches response`);
  const next = [...items];
  for (const answered of response.data.items) {
    const index = Number(answered.uid);
    const item = Number.isInteger(index) ? next[index] : undefined;
    if (!item || String(index) !== answered.uid) throw new TopologyPatchError(`patch "${patch.name}" (external ${extension}) answered an unknown item uid "${answered.uid}"`);
    try {
      next[index] = { ...item, template: decodePatch(patch.name, answered.patchType, answered.patch, item.template) };
    } catch (error) {
      if (error instanceof TopologyPatchError) throw error;
      throw new TopologyPatchError(`patch "${patch.name}" (external ${extension}) failed on the ${item.description}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return next;
}

async function validateTopology(patches: readonly ClusterClassPatch[], items: readonly PatchItem[], context: ExternalPatchContext): Promise<void> {
  for (const patch of patches) {
    const extension = patch.external ? stringField(patch.external, 'validateTopologyExtension') : undefined;
    if (!patch.external || !extension) continue;
    const settings = isRecord(patch.external.settings) ? patch.external.settings : {};
    const body = { settings, variables: [], items: requestItems(items).map(({ uid: _uid, ...rest }) => rest) };
    const result = await caller(context, patch).callExtension(extension, 'ValidateTopology', context.namespace, body);
    if (result.status === 'Failure') throw new TopologyPatchError(`patch "${patch.name}" (external ${extension}) rejected the topology: ${result.message}`);
  }
}

/** Every patch in order, inline and external; then the external topology validations. */
export async function applyClassPatches(patches: readonly ClusterClassPatch[], items: readonly PatchItem[], context: ExternalPatchContext): Promise<PatchItem[]> {
  let current = items.map((item) => ({ ...item }));
  for (const patch of patches) {
    if (patch.definitions !== undefined) current = applyInlinePatch(patch, current);
    else if (patch.external) current = await applyExternalPatch(patch, patch.external, current, context);
  }
  await validateTopology(patches, current, context);
  return current;
}
