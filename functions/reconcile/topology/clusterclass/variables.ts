/**
 * `status.variables` of a ClusterClass (Cluster API's clusterclass controller, reconcileVariables):
 * the inline definitions (`from: inline`), then, for each patch with
 * `external.discoverVariablesExtension`, the variables its DiscoverVariables answer defines
 * (`from: <patch name>`), the request carrying the patch's `external.settings`. A name defined
 * more than once gets every definition; differing ones (required or schema) mark it
 * `definitionsConflict`. Any failed call, Failure answer, duplicate name within one answer or
 * unusable schema fails discovery: the caller keeps the previous `status.variables` and reports
 * VariablesReady=False (VariableDiscoveryFailed) with every reason. Sorted by name.
 */

import { deepEqual, isRecord, stringEntriesOf } from '../../../../shared/contracts/json.js';
import { discoverVariablesResponseSchema } from '../../../../shared/contracts/hooks/topology-mutation.js';
import type { ClusterClassPatch } from '../../../../shared/contracts/schemas/core/cluster-class.js';
import { classVariableDefinitions } from '../../../../shared/contracts/topology/topology-variables.js';
import { compileVariableSchema } from '../../../../shared/contracts/topology/variable-schema.js';
import type { ExtensionCaller } from '../../../../shared/ports/runtime-extensions.js';

export const FROM_INLINE = 'inline';

export interface StatusVariableDefinition {
  from: string;
  required: boolean;
  schema: { openAPIV3Schema: unknown };
  deprecatedV1Beta1Metadata?: unknown;
}

export interface StatusVariable {
  name: string;
  definitionsConflict: boolean;
  definitions: StatusVariableDefinition[];
}

/** Failed with `variables`: conflicting definitions, written as Cluster API writes them; without: keep the previous ones. */
export type VariablesOutcome = { ok: true; variables: StatusVariable[] } | { ok: false; message: string; variables?: StatusVariable[] };

function addDefinition(all: Map<string, StatusVariable>, name: string, definition: StatusVariableDefinition): void {
  const existing = all.get(name);
  if (!existing) {
    all.set(name, { name, definitionsConflict: false, definitions: [definition] });
    return;
  }
  const first = existing.definitions[0];
  const differs = first !== undefined && (first.required !== definition.required || !deepEqual(first.schema, definition.schema) || !deepEqual(first.deprecatedV1Beta1Metadata, definition.deprecatedV1Beta1Metadata));
  all.set(name, { name, definitionsConflict: existing.definitionsConflict || differs, definitions: [...existing.definitions, definition] });
}

/** One patch's DiscoverVariables call: its definitions, or why discovery failed. */
async function discover(patch: ClusterClassPatch, extension: string, caller: ExtensionCaller | undefined, namespace: string): Promise<{ definitions: Array<[string, StatusVariableDefinition]>; errors: string[] }> {
  const failed = (why: string) => ({ definitions: [], errors: [why] });
  if (!caller) return failed(`failed to call DiscoverVariables for patch ${patch.name}: no Runtime SDK client is configured`);
  const result = await caller.callExtension(extension, 'DiscoverVariables', namespace, { settings: stringEntriesOf(patch.external?.settings) });
  if (result.status === 'Failure') return failed(`failed to call DiscoverVariables for patch ${patch.name}: ${result.message}`);
  const response = discoverVariablesResponseSchema.safeParse(result.response);
  if (!response.success) return failed(`patch ${patch.name} answered DiscoverVariables with an invalid response`);
  const errors: string[] = [];
  const definitions: Array<[string, StatusVariableDefinition]> = [];
  const seen = new Set<string>();
  for (const variable of response.data.variables) {
    if (seen.has(variable.name)) {
      errors.push(`variable "${variable.name}" is defined multiple times in variable discovery response from patch "${patch.name}"`);
      continue;
    }
    seen.add(variable.name);
    const openAPIV3Schema = isRecord(variable.schema) ? variable.schema.openAPIV3Schema : undefined;
    const compiled = compileVariableSchema(openAPIV3Schema);
    if (!compiled.ok) {
      errors.push(`${patch.name}.variables[${variable.name}].schema.openAPIV3Schema: ${compiled.message}`);
      continue;
    }
    const metadata = isRecord(variable.metadata) ? { deprecatedV1Beta1Metadata: variable.metadata } : {};
    definitions.push([variable.name, { from: patch.name, required: variable.required, schema: { openAPIV3Schema }, ...metadata }]);
  }
  return { definitions, errors };
}

export async function reconcileClassVariables(classSpec: unknown, patches: readonly ClusterClassPatch[], caller: ExtensionCaller | undefined, namespace: string): Promise<VariablesOutcome> {
  const all = new Map<string, StatusVariable>();
  for (const v of classVariableDefinitions(classSpec)) {
    addDefinition(all, v.name, { from: FROM_INLINE, required: v.required, schema: { openAPIV3Schema: v.openAPIV3Schema } });
  }
  const errors: string[] = [];
  for (const patch of patches) {
    const extension = patch.external?.discoverVariablesExtension;
    if (typeof extension !== 'string' || extension === '') continue;
    const discovered = await discover(patch, extension, caller, namespace);
    errors.push(...discovered.errors);
    if (discovered.errors.length === 0) for (const [name, definition] of discovered.definitions) addDefinition(all, name, definition);
  }
  if (errors.length > 0) return { ok: false, message: `VariableDiscovery failed: ${errors.join(', ')}` };
  const variables = [...all.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const conflicting = variables.filter((v) => v.definitionsConflict).map((v) => v.name);
  if (conflicting.length > 0) return { ok: false, variables, message: `VariableDiscovery failed: the following variables have conflicting schemas: ${conflicting.join(',')}` };
  return { ok: true, variables };
}
