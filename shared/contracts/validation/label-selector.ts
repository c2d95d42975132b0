/** Evaluates a `metav1.LabelSelector` against a label set, and validates one as apimachinery does. */

import type { LabelSelector, LabelSelectorRequirement } from '../schemas/common/selector.js';
import { type FieldError, invalid } from './field-error.js';
import { labelValueErrors, qualifiedNameErrors } from './object-meta.js';

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

/**
 * apimachinery's `metav1.LabelSelectorAsSelector` as a validation: the selector refused at `field`
 * (one error, the value the whole selector, as Cluster API's webhooks report it) with the message
 * of its first bad requirement — match labels, then match expressions, each `labels.NewRequirement`:
 * the key a qualified name, In/NotIn with values, Exists/DoesNotExist without, each value a label
 * value. None for a valid (or empty, select-everything) selector.
 */
export function labelSelectorErrors(selector: LabelSelector, field: string): FieldError[] {
  const requirements: Requirement[] = [
    ...Object.entries(selector.matchLabels ?? {}).map(([key, value]): Requirement => ({ key, operator: 'Equals', values: [value] })),
    ...(selector.matchExpressions ?? []).map((req): Requirement => ({ key: req.key, operator: req.operator, values: req.values ?? [] })),
  ];
  for (const requirement of requirements) {
    const message = requirementError(requirement);
    if (message !== undefined) return [invalid(field, selector, message)];
  }
  return [];
}

/** A `labels.Requirement` before it is checked; match labels are `Equals` one value. */
interface Requirement {
  key: string;
  operator: LabelSelectorRequirement['operator'] | 'Equals';
  values: readonly string[];
}

/** `labels.NewRequirement`'s error (an aggregate of field errors, rendered as Go renders it), if any. */
function requirementError({ key, operator, values }: Requirement): string | undefined {
  const errors: string[] = [];
  const keyErrors = qualifiedNameErrors(key);
  if (keyErrors.length > 0) errors.push(`key: Invalid value: ${goString(key)}: ${keyErrors.join('; ')}`);
  if ((operator === 'In' || operator === 'NotIn') && values.length === 0) {
    errors.push(`values: Invalid value: ${goStrings(values)}: for 'in', 'notin' operators, values set can't be empty`);
  }
  if ((operator === 'Exists' || operator === 'DoesNotExist') && values.length > 0) {
    errors.push(`values: Invalid value: ${goStrings(values)}: values set must be empty for exists and does not exist`);
  }
  values.forEach((value, i) => {
    const valueErrors = labelValueErrors(value);
    if (valueErrors.length > 0) errors.push(`values[${i}][${key}]: Invalid value: ${goString(value)}: ${valueErrors.join('; ')}`);
  });
  const distinct = [...new Set(errors)];
  if (distinct.length <= 1) return distinct[0];
  return `[${distinct.join(', ')}]`;
}

/** Go's `%q` of a string (JSON's quoting, the same for what label keys and values hold). */
const goString = (value: string): string => JSON.stringify(value);

/** Go's `%#v` of the `[]string` a requirement is built with (nil when empty). */
const goStrings = (values: readonly string[]): string => (values.length === 0 ? '[]string(nil)' : `[]string{${values.map(goString).join(', ')}}`);
