/** `metav1.LabelSelector`. */

import { z } from 'zod';

export const labelSelectorRequirementSchema = z.strictObject({
  key: z.string().min(1),
  operator: z.enum(['In', 'NotIn', 'Exists', 'DoesNotExist']),
  values: z.array(z.string()).optional(),
});

export const labelSelectorSchema = z.strictObject({
  matchLabels: z.record(z.string(), z.string()).optional(),
  matchExpressions: z.array(labelSelectorRequirementSchema).optional(),
});

export type LabelSelector = z.infer<typeof labelSelectorSchema>;
export type LabelSelectorRequirement = z.infer<typeof labelSelectorRequirementSchema>;
