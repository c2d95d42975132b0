import { z } from 'zod';
import { finalizersSchema, objectMetaSchema } from '../common/metadata.js';
import { dnsLabel } from '../common/names.js';

/**
 * core/v1 Namespace. Its name is a DNS-1123 label (apimachinery ValidateNamespaceName). capless
 * serves Namespaces so that clients which make one before they write into it (`kubectl create
 * namespace`, `clusterctl move`) find what they expect; objects do not need one (ADR 0151).
 */
export const namespaceSchema = z.strictObject({
  apiVersion: z.string().min(1),
  kind: z.string().min(1),
  metadata: objectMetaSchema.extend({ name: dnsLabel }),
  spec: z.strictObject({ finalizers: finalizersSchema.optional() }).optional(),
  status: z
    .strictObject({
      phase: z.enum(['Active', 'Terminating']).optional(),
      conditions: z.array(z.looseObject({ type: z.string().min(1), status: z.string().min(1) })).optional(),
    })
    .optional(),
});

export type Namespace = z.infer<typeof namespaceSchema>;
