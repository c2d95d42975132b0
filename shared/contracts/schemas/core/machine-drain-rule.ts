/**
 * MachineDrainRule (cluster.x-k8s.io, C14 `api/core/v1beta2/machinedrainrules_types.go`): how the
 * Machine controller's Node drain treats the Pods a rule selects. v1beta1 has the same shape.
 * The CRD's bounds and rules are repeated here (entries `minProperties: 1`, 1 to 32 of them, each
 * unique) so that an object written in v1beta1, whose schema capless does not vendor, is refused
 * exactly as one in v1beta2 (checked against the vendored CRD schema too) is.
 */

import { z } from 'zod';
import { invalid } from '../../validation/field-error.js';
import { entriesUnique } from '../common/cel-rules.js';
import { withFieldErrors } from '../common/metadata.js';
import { envelope } from '../common/envelope.js';
import { int32 } from '../common/names.js';
import { labelSelectorSchema } from '../common/selector.js';

const BEHAVIORS = ['Drain', 'Skip', 'WaitCompleted'] as const;

/** The CRD's `maxItems` of `spec.machines` and `spec.pods`. */
const MAX_SELECTORS = 32;

/** An entry of `machines`/`pods` must set one of its selectors (the CRD's `minProperties: 1`), worded as the API server's OpenAPI check. */
function withSomeProperty<T extends z.ZodType<Record<string, unknown>>>(schema: T): T {
  return schema.superRefine((value, ctx) => {
    if (Object.keys(value).length < 1) ctx.addIssue({ code: 'custom', message: 'should have at least 1 properties', params: { inBody: true } });
  });
}

/** A list of 1 to 32 selector entries, no two alike (the CRD's `self.all(x, self.exists_one(y, x == y))`). */
function selectorList<T extends z.ZodType>(entry: T, name: string) {
  const list = z.array(entry).min(1).max(MAX_SELECTORS);
  return withFieldErrors(list, (entries) => (entriesUnique(entries) ? [] : [invalid('', 'array', `entries in ${name} must be unique`)]));
}

const machineSelectorSchema = withSomeProperty(
  z.strictObject({
    selector: labelSelectorSchema.optional(),
    clusterSelector: labelSelectorSchema.optional(),
  }),
);

const podSelectorSchema = withSomeProperty(
  z.strictObject({
    selector: labelSelectorSchema.optional(),
    namespaceSelector: labelSelectorSchema.optional(),
  }),
);

export const machineDrainRuleSpecSchema = z.strictObject({
  drain: z.strictObject({
    // A string first, so that a missing behavior is `Required value` (the API server's words), not
    // an unsupported null; the published schema (`input`) keeps the enum through `meta`.
    behavior: z.string().pipe(z.enum(BEHAVIORS)).meta({ enum: [...BEHAVIORS] }),
    /** Only with behavior Drain (the webhook); unset means 0. */
    order: int32().optional(),
  }),
  machines: selectorList(machineSelectorSchema, 'machines').optional(),
  pods: selectorList(podSelectorSchema, 'pods').optional(),
});

export const machineDrainRuleSchema = z.strictObject({
  ...envelope,
  spec: machineDrainRuleSpecSchema,
});

export type MachineDrainRule = z.infer<typeof machineDrainRuleSchema>;
