/**
 * The in-cluster IPAM provider's pools (kubernetes-sigs/cluster-api-ipam-provider-in-cluster
 * `api/v1alpha2`): InClusterIPPool (namespaced) and GlobalInClusterIPPool (cluster-scoped), one
 * spec and status shape.
 */

import { z } from 'zod';
import { envelope } from '../common/envelope.js';
import { baseStatusSchema } from '../common/status.js';

const count = z.int().min(0);

export const inClusterIPPoolSpecSchema = z.strictObject({
  addresses: z.array(z.string()),
  prefix: z.int().min(0).max(128),
  gateway: z.string().optional(),
  excludedAddresses: z.array(z.string()).optional(),
  allocateReservedIPAddresses: z.boolean().optional(),
});

export const inClusterIPPoolSchema = z.strictObject({
  ...envelope,
  spec: inClusterIPPoolSpecSchema,
  status: baseStatusSchema
    .extend({
      ipAddresses: z.strictObject({ total: count, used: count, free: count, outOfRange: count }).optional(),
    })
    .optional(),
});

export type InClusterIPPool = z.infer<typeof inClusterIPPoolSchema>;
export type InClusterIPPoolSpec = z.infer<typeof inClusterIPPoolSpecSchema>;
