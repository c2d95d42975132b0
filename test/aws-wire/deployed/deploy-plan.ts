/**
 * Which resources of a synthesized template moto can create, and what is left out. moto's
 * CloudFormation skips a resource type it has no model for with only a log line, and the stack
 * still reports CREATE_COMPLETE; so the deploy step removes those resources itself, together with
 * everything that refers to them, and says so. Pure: the template in, the plan out.
 */

import { z } from 'zod';
import { referencesIn } from './template-refs.js';

const templateSchema = z.looseObject({
  Resources: z.record(
    z.string(),
    z.looseObject({ Type: z.string(), Properties: z.unknown().optional(), DependsOn: z.union([z.string(), z.array(z.string())]).optional() }),
  ),
  Outputs: z.record(z.string(), z.unknown()).optional(),
});

export type Template = z.infer<typeof templateSchema>;

export interface RemovedResource {
  logicalId: string;
  type: string;
  /** `moto has no CloudFormation model for <type>` or `refers to <logicalId> (removed)`. */
  reason: string;
}

export interface DeployPlan {
  /** The template moto gets: same resources minus the removed ones; DependsOn pruned to match. */
  template: Template;
  removed: RemovedResource[];
  /** Outputs left out because they refer to removed resources. */
  removedOutputs: string[];
}

/** Reads `value` as a CloudFormation template, or throws naming what is wrong with it. */
export function asTemplate(value: unknown, source: string): Template {
  const parsed = templateSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${source} is not a CloudFormation template: ${issue?.path.join('.') || '(root)'}: ${issue?.message}`);
  }
  return parsed.data;
}

export function planForMoto(template: Template, supportedTypes: ReadonlySet<string>): DeployPlan {
  const removed = removals(template, supportedTypes);
  const resources: Template['Resources'] = {};
  for (const [logicalId, resource] of Object.entries(template.Resources)) {
    if (removed.has(logicalId)) continue;
    const dependsOn = resource.DependsOn === undefined ? undefined : [resource.DependsOn].flat().filter((id) => !removed.has(id));
    const { DependsOn: _ignored, ...rest } = resource;
    resources[logicalId] = dependsOn && dependsOn.length > 0 ? { ...rest, DependsOn: dependsOn } : rest;
  }
  const outputs: Record<string, unknown> = {};
  const removedOutputs: string[] = [];
  for (const [name, output] of Object.entries(template.Outputs ?? {})) {
    if (referencesIn(output).some((ref) => removed.has(ref))) removedOutputs.push(name);
    else outputs[name] = output;
  }
  return { template: { ...template, Resources: resources, Outputs: outputs }, removed: [...removed.values()], removedOutputs };
}

function removals(template: Template, supportedTypes: ReadonlySet<string>): Map<string, RemovedResource> {
  const removed = new Map<string, RemovedResource>();
  for (const [logicalId, resource] of Object.entries(template.Resources)) {
    if (!supportedTypes.has(resource.Type)) {
      removed.set(logicalId, { logicalId, type: resource.Type, reason: `moto has no CloudFormation model for ${resource.Type}` });
    }
  }
  // Whatever refers to a removed resource cannot be created either: remove it too, to a fixed point.
  for (let changed = true; changed; ) {
    changed = false;
    for (const [logicalId, resource] of Object.entries(template.Resources)) {
      if (removed.has(logicalId)) continue;
      const target = referencesIn({ Properties: resource.Properties, Condition: resource.Condition }).find((ref) => removed.has(ref));
      if (target !== undefined) {
        removed.set(logicalId, { logicalId, type: resource.Type, reason: `refers to ${target} (removed)` });
        changed = true;
      }
    }
  }
  return removed;
}

/** The distinct types moto cannot create, sorted: the list the deploy step prints and the test pins. */
export function unsupportedTypes(plan: DeployPlan): string[] {
  return [...new Set(plan.removed.filter((r) => r.reason.startsWith('moto has no')).map((r) => r.type))].sort();
}

/** One line per removed resource, grouped by reason, for the deploy log. */
export function describeRemovals(plan: DeployPlan): string {
  const lines = [`moto cannot create ${unsupportedTypes(plan).length} resource types; left out of the deployed stack:`];
  for (const type of unsupportedTypes(plan)) {
    const ids = plan.removed.filter((r) => r.type === type && r.reason.startsWith('moto has no')).map((r) => r.logicalId);
    lines.push(`  ${type} (${ids.length}): ${ids.join(', ')}`);
  }
  const dependents = plan.removed.filter((r) => !r.reason.startsWith('moto has no'));
  if (dependents.length > 0) lines.push('and what refers to them:');
  for (const r of dependents) lines.push(`  ${r.type} ${r.logicalId}: ${r.reason}`);
  if (plan.removedOutputs.length > 0) lines.push(`outputs left out: ${plan.removedOutputs.join(', ')}`);
  return lines.join('\n');
}
