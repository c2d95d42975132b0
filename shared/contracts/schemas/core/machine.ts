import { z } from 'zod';
import { envelope } from '../common/envelope.js';
import { localRefSchema } from '../common/references.js';
import { baseStatusSchema } from '../common/status.js';
import { machineSpecSchema } from './machine-spec.js';

export const machineAddressSchema = z.looseObject({
  type: z.enum(['Hostname', 'ExternalIP', 'InternalIP', 'ExternalDNS', 'InternalDNS']),
  address: z.string(),
});

export const machineStatusSchema = baseStatusSchema.extend({
  initialization: z
    .looseObject({
      infrastructureProvisioned: z.boolean().optional(),
      bootstrapDataSecretCreated: z.boolean().optional(),
    })
    .optional(),
  nodeRef: localRefSchema.optional(),
  nodeInfo: z.record(z.string(), z.unknown()).optional(),
  lastUpdated: z.string().optional(),
  addresses: z.array(machineAddressSchema).optional(),
  failureDomain: z.string().optional(),
  phase: z.string().optional(),
  certificatesExpiryDate: z.string().optional(),
  deletion: z.record(z.string(), z.unknown()).optional(),
});

export const machineSchema = z.strictObject({
  ...envelope,
  spec: machineSpecSchema,
  status: machineStatusSchema.optional(),
});

export type Machine = z.infer<typeof machineSchema>;
export type MachineStatus = z.infer<typeof machineStatusSchema>;
