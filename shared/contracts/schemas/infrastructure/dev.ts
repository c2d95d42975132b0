/**
 * Cluster API's development infrastructure kinds (CAPD's v1beta2 Dev* API). `spec.backend.inMemory`
 * is served by capless's in-memory provider; `spec.backend.docker` is accepted and kept as is
 * (no Docker here: objects using it wait with ProviderNotInstalled).
 */

import { z } from 'zod';
import { envelope, templateOf } from '../common/envelope.js';
import { baseStatusSchema, openRecord } from '../common/status.js';
import { apiEndpointSchema, failureDomainSchema } from '../core/cluster.js';

/** `startupDuration` is a Go duration ("10s"), `startupJitter` a fraction as a string ("0.2"). */
const provisioningSchema = z.looseObject({
  provisioning: z
    .looseObject({ startupDuration: z.string().max(64).optional(), startupJitter: z.string().max(32).optional() })
    .optional(),
});

export const devInMemoryMachineBackendSchema = z.looseObject({
  vm: provisioningSchema.optional(),
  node: provisioningSchema.optional(),
  apiServer: provisioningSchema.optional(),
  etcd: provisioningSchema.optional(),
});

const devMachineBackendSchema = z
  .strictObject({ docker: openRecord.optional(), inMemory: devInMemoryMachineBackendSchema.optional() })
  .refine((b) => (b.docker === undefined) !== (b.inMemory === undefined), { message: 'exactly one of docker or inMemory must be set' });

const devClusterBackendSchema = z
  .strictObject({ docker: openRecord.optional(), inMemory: openRecord.optional() })
  .refine((b) => (b.docker === undefined) !== (b.inMemory === undefined), { message: 'exactly one of docker or inMemory must be set' });

export const devMachineSpecSchema = z.strictObject({
  providerID: z.string().max(512).optional(),
  backend: devMachineBackendSchema,
});

export const devClusterSpecSchema = z.strictObject({
  controlPlaneEndpoint: apiEndpointSchema.optional(),
  backend: devClusterBackendSchema,
});

const initialization = z.looseObject({ provisioned: z.boolean().optional() }).optional();

export const devClusterSchema = z.strictObject({
  ...envelope,
  spec: devClusterSpecSchema,
  status: baseStatusSchema.extend({ initialization, failureDomains: z.array(failureDomainSchema).optional() }).optional(),
});

export const devClusterTemplateSchema = z.strictObject({ ...envelope, spec: templateOf(devClusterSpecSchema) });

export const devMachineSchema = z.strictObject({
  ...envelope,
  spec: devMachineSpecSchema,
  status: baseStatusSchema
    .extend({
      initialization,
      addresses: z.array(z.looseObject({ type: z.string(), address: z.string() })).optional(),
      failureDomain: z.string().optional(),
    })
    .optional(),
});

export const devMachineTemplateSchema = z.strictObject({ ...envelope, spec: templateOf(devMachineSpecSchema) });

/** Machine pools are not served by capless; their template is accepted so CAPI's quick-start class applies. */
export const devMachinePoolTemplateSchema = z.strictObject({
  ...envelope,
  spec: z.strictObject({ template: z.looseObject({ spec: z.looseObject({ backend: openRecord.optional() }) }) }),
});

export type DevMachine = z.infer<typeof devMachineSchema>;
export type DevCluster = z.infer<typeof devClusterSchema>;
