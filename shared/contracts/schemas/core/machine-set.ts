import { z } from 'zod';
import { envelope } from '../common/envelope.js';
import { templateMetaSchema } from '../common/metadata.js';
import { int32 } from '../common/names.js';
import { labelSelectorSchema } from '../common/selector.js';
import { machineSpecSchema } from './machine-spec.js';
import { replicaStatusSchema } from './replica-status.js';

export const machineTemplateSpecSchema = z.strictObject({
  metadata: templateMetaSchema.optional(),
  spec: machineSpecSchema,
});

export const deletionOrderSchema = z.enum(['Random', 'Newest', 'Oldest']);
export const machineNamingSchema = z.strictObject({ template: z.string().max(256).optional() });

export const machineSetSpecSchema = z.strictObject({
  clusterName: z.string().min(1).max(63),
  replicas: int32().min(0).optional(),
  // Optional here: admission defaults an empty selector (CAPI's mutating webhook runs before schema validation).
  selector: labelSelectorSchema.default({}),
  template: machineTemplateSpecSchema,
  deletion: z.strictObject({ order: deletionOrderSchema.optional() }).optional(),
  machineNaming: machineNamingSchema.optional(),
});

export const machineSetSchema = z.strictObject({
  ...envelope,
  spec: machineSetSpecSchema,
  status: replicaStatusSchema.optional(),
});

export type MachineSet = z.infer<typeof machineSetSchema>;
export type MachineTemplateSpec = z.infer<typeof machineTemplateSpecSchema>;
