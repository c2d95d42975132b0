/** Evaluates a `metav1.LabelSelector` against a label set. */

import type { LabelSelector, LabelSelectorRequirement } from '../schemas/common/selector.js';

export function selectorMatches(selector: LabelSelector, labels: Readonly<Record<string, string>>): boolean {
  const byLabels = Object.entries(selector.matchLabels ?? {}).every(([key, value]) => labels[key] === value);
  if (!byLabels) return false;
  return (selector.matchExpressions ?? []).every((req) => requirementMatches(req, labels[req.key]));
}

function requirementMatches(req: LabelSelectorRequirement, value: string | undefined): boolean {
  const values = req.values ?? [];
  switch (req.operator) {
    case 'In':
      return value !== undefined && values.includes(value);
    case 'NotIn':
      return value === undefined || !values.includes(value);
    case 'Exists':
      return value !== undefined;
    case 'DoesNotExist':
      return value === undefined;
  }
}

/** An empty selector selects everything, which CAPI forbids for owners of Machines. */
export function isEmptySelector(selector: LabelSelector): boolean {
  return Object.keys(selector.matchLabels ?? {}).length === 0 && (selector.matchExpressions ?? []).length === 0;
}
