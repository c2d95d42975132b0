/**
 * ClusterClass inline patches (Cluster API's patches/engine.go and inline/json_patch_generator.go):
 * each patch, in `spec.patches` order, runs on the previous output; `enabledIf` and every value
 * are computed per item from that item's variables (globals, then its overrides, plus `builtin`);
 * a definition applies to an item whose template matches the selector's apiVersion and kind and
 * one of its `matchResources`. `valueFrom.template` renders a Go template and parses it as YAML.
 * Pure: items are returned patched; a failure names the patch, the item and the reason.
 */

import { parse as parseYaml } from 'yaml';
import { isRecord, type JsonRecord } from '../../../../shared/contracts/json.js';
import type { ClassJsonPatch, ClusterClassPatch, PatchDefinition } from '../../../../shared/contracts/schemas/core/cluster-class.js';
import { renderTemplate, TemplateError } from '../../../../shared/gotemplate/execute.js';
import { applyOperation, PatchError } from './json-patch.js';

/** Which part of the topology an item is (CAPI's holder kinds). */
export type PatchItemRole = 'InfrastructureCluster' | 'ControlPlane' | 'ControlPlaneMachineInfrastructure' | 'MachineDeploymentBootstrap' | 'MachineDeploymentInfrastructure';

/** The object that refers to an item's generated object (GeneratePatches `holderReference`). */
export interface PatchHolder {
  apiVersion: string;
  kind: string;
  name: string;
  fieldPath: string;
}

export interface PatchItem {
  role: PatchItemRole;
  /** Who holds the generated object (external patches tell extensions). */
  holder?: PatchHolder;
  /** The MachineDeployment class, for MachineDeployment items. */
  machineDeploymentClass?: string;
  /** A label for messages (`MachineDeployment md-0 infrastructure template`). */
  description: string;
  /** The template object being patched (apiVersion, kind, spec …). */
  template: JsonRecord;
  /** Variables as templates read them: user variables (overrides applied) plus `builtin`. */
  variables: JsonRecord;
}

export class TopologyPatchError extends Error {}

/** `*`, `prefix*`, `*suffix` or an exact name (inline/json_patch_generator.go). */
export function matchesName(pattern: string, name: string): boolean {
  if (pattern === '*') return true;
  if (pattern.startsWith('*')) return name.endsWith(pattern.slice(1));
  if (pattern.endsWith('*')) return name.startsWith(pattern.slice(0, -1));
  return pattern === name;
}

export function selectorMatches(definition: PatchDefinition, item: PatchItem): boolean {
  const { selector } = definition;
  if (selector.apiVersion !== item.template.apiVersion || selector.kind !== item.template.kind) return false;
  const match = selector.matchResources;
  if (match.infrastructureCluster && item.role === 'InfrastructureCluster') return true;
  if (match.controlPlane && (item.role === 'ControlPlane' || item.role === 'ControlPlaneMachineInfrastructure')) return true;
  const mdClass = item.machineDeploymentClass;
  if (match.machineDeploymentClass && mdClass !== undefined && (item.role === 'MachineDeploymentBootstrap' || item.role === 'MachineDeploymentInfrastructure')) {
    return (match.machineDeploymentClass.names ?? []).some((pattern) => matchesName(pattern, mdClass));
  }
  return false;
}

/** `a.b[0].c` against the variables; undefined when any step is missing. */
export function variableAt(variables: JsonRecord, path: string): unknown {
  let current: unknown = variables;
  for (const part of path.split('.')) {
    const m = /^([^[\]]+)((?:\[\d+\])*)$/.exec(part);
    if (!m?.[1]) return undefined;
    current = isRecord(current) ? current[m[1]] : undefined;
    for (const index of (m[2] ?? '').match(/\d+/g) ?? []) current = Array.isArray(current) ? current[Number(index)] : undefined;
  }
  return current;
}

function patchValue(jsonPatch: ClassJsonPatch, variables: JsonRecord): unknown {
  const from = jsonPatch.valueFrom;
  if (!from) return jsonPatch.value;
  if (from.variable !== undefined) {
    const value = variableAt(variables, from.variable);
    if (value === undefined) throw new TopologyPatchError(`variable "${from.variable}" is not set`);
    return value;
  }
  const rendered = renderTemplate(from.template ?? '', variables);
  try {
    return parseYaml(rendered);
  } catch (error) {
    throw new TopologyPatchError(`the rendered template is not YAML: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** `enabledIf` is true only when the template renders to exactly `true`. */
export function patchEnabled(patch: ClusterClassPatch, variables: JsonRecord): boolean {
  if (patch.enabledIf === undefined) return true;
  return renderTemplate(patch.enabledIf, variables).trim() === 'true';
}

function describe(error: unknown): string {
  return error instanceof TemplateError || error instanceof PatchError || error instanceof TopologyPatchError
    ? error.message
    : String(error);
}

/** One patch on one item: its definitions whose selector matches, each JSON patch in order. */
function patchItem(patch: ClusterClassPatch, item: PatchItem): PatchItem {
  if (!patchEnabled(patch, item.variables)) return item;
  let template = item.template;
  for (const definition of (patch.definitions ?? []).filter((d) => selectorMatches(d, item))) {
    for (const jsonPatch of definition.jsonPatches) {
      const value = jsonPatch.op === 'remove' ? undefined : patchValue(jsonPatch, item.variables);
      template = applyOperation(template, { op: jsonPatch.op, path: jsonPatch.path, value });
    }
  }
  return { ...item, template };
}

/** One inline patch on every item; throws TopologyPatchError naming the patch and the item. */
export function applyInlinePatch(patch: ClusterClassPatch, items: readonly PatchItem[]): PatchItem[] {
  return items.map((item) => {
    try {
      return patchItem(patch, item);
    } catch (error) {
      throw new TopologyPatchError(`patch "${patch.name}" failed on the ${item.description}: ${describe(error)}`);
    }
  });
}

/** Applies the inline patches to the items, in order (external ones are skipped: external-patches.ts runs both). */
export function applyInlinePatches(patches: readonly ClusterClassPatch[], items: readonly PatchItem[]): PatchItem[] {
  let current = items.map((item) => ({ ...item }));
  for (const patch of patches.filter((p) => p.definitions !== undefined)) current = applyInlinePatch(patch, current);
  return current;
}
