/** The fields every object carries; kind schemas spread this into their own object schema. */

import { z } from 'zod';
import { objectMetaSchema, templateMetaSchema } from './metadata.js';

export const envelope = {
  apiVersion: z.string().min(1),
  kind: z.string().min(1),
  metadata: objectMetaSchema,
};

/** `spec.template.spec` of a provider template kind, with a spec schema of choice. */
export function templateOf<T extends z.ZodType>(spec: T) {
  return z.strictObject({
    template: z.strictObject({
      metadata: templateMetaSchema.optional(),
      spec,
    }),
  });
}

/** A kind accepted loosely: known envelope, any spec and status (passthrough). */
export const looseKindSchema = z.looseObject({
  ...envelope,
  spec: z.record(z.string(), z.unknown()).optional(),
  status: z.record(z.string(), z.unknown()).optional(),
});
export type LooseKind = z.infer<typeof looseKindSchema>;
