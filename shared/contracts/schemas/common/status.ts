/** Status shapes shared by all kinds. Status is written by reconcilers, so it is tolerant. */

import { z } from 'zod';

export const conditionSchema = z.looseObject({
  type: z.string().min(1),
  status: z.enum(['True', 'False', 'Unknown']),
  reason: z.string(),
  message: z.string().optional(),
  lastTransitionTime: z.string(),
  observedGeneration: z.int().optional(),
});

/** A status with the fields every capless status may carry; kinds extend it. */
export const baseStatusSchema = z.looseObject({
  conditions: z.array(conditionSchema).optional(),
  observedGeneration: z.int().optional(),
});

/** A record for parts a CRD leaves open (`x-kubernetes-preserve-unknown-fields`) or we model loosely. */
export const openRecord = z.record(z.string(), z.unknown());
