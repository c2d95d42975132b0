/**
 * MachineDrainRules as a drain applies them (Cluster API's getMatchingMachineDrainRules and
 * machineDrainRuleAppliesToPod): the rules of the Machine's namespace whose `spec.machines`
 * selects the Machine and its Cluster (no entries: every Machine), sorted by name; a Pod takes the
 * first whose `spec.pods` selects it and its Namespace (no entries: every Pod). An empty or absent
 * selector selects everything. A rule whose selectors are invalid stops the drain until someone
 * fixes it, as in Cluster API (admission refuses such rules; this guards against ones written
 * before).
 */
import type { StoredObject } from '../../../../../shared/contracts/object.js';
import type { LabelSelector } from '../../../../../shared/contracts/schemas/common/selector.js';
import { machineDrainRuleSpecSchema } from '../../../../../shared/contracts/schemas/core/machine-drain-rule.js';
import { renderFieldError } from '../../../../../shared/contracts/validation/field-error.js';
import { selectorMatches } from '../../../../../shared/contracts/validation/label-selector.js';
import { machineDrainRuleSelectorErrors } from '../../../../../shared/contracts/validation/machine-drain-rule.js';
import { goOrder } from './evictions.js';

export interface DrainRule {
  name: string;
  behavior: string;
  order?: number;
  pods: ReadonlyArray<{ selector?: LabelSelector; namespaceSelector?: LabelSelector }>;
}

type Labels = Readonly<Record<string, string>>;

/** By name in Go's string order, as Cluster API sorts the rules. */
const byName = (a: StoredObject, b: StoredObject) => goOrder(a.metadata.name, b.metadata.name);

function matches(selector: LabelSelector | undefined, labels: Labels): boolean {
  return selector === undefined || selectorMatches(selector, labels);
}

export function ruleAppliesToPod(rule: DrainRule, podLabels: Labels, namespaceLabels: Labels): boolean {
  return rule.pods.length === 0 || rule.pods.some((entry) => matches(entry.selector, podLabels) && matches(entry.namespaceSelector, namespaceLabels));
}

/** The rules (objects of the Machine's namespace) that apply to the Machine, by name; or why none can be trusted. */
export function drainRulesFor(objects: readonly StoredObject[], machineLabels: Labels, clusterLabels: Labels): { rules: DrainRule[]; errors: string[] } {
  const rules: DrainRule[] = [];
  const errors: string[] = [];
  for (const object of [...objects].sort(byName)) {
    const name = object.metadata.name;
    const parsed = machineDrainRuleSpecSchema.safeParse(object.spec);
    if (!parsed.success) {
      errors.push(`MachineDrainRule ${name} has an invalid spec: ${parsed.error.issues[0]?.message ?? 'unknown'}`);
      continue;
    }
    const spec = parsed.data;
    const selectorErrors = machineDrainRuleSelectorErrors(spec);
    if (selectorErrors.length > 0) {
      errors.push(`invalid selectors in MachineDrainRule ${name}: ${selectorErrors.map(renderFieldError).join('; ')}`);
      continue;
    }
    const machines = spec.machines ?? [];
    const applies = machines.length === 0 || machines.some((entry) => matches(entry.selector, machineLabels) && matches(entry.clusterSelector, clusterLabels));
    if (!applies) continue;
    rules.push({ name, behavior: spec.drain.behavior, ...(spec.drain.order !== undefined ? { order: spec.drain.order } : {}), pods: spec.pods ?? [] });
  }
  return { rules, errors };
}
