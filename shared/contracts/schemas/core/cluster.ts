import { z } from 'zod';
import { envelope } from '../common/envelope.js';
import { contractRefSchema } from '../common/references.js';
import { baseStatusSchema, openRecord } from '../common/status.js';

export const apiEndpointSchema = z.strictObject({
  host: z.string().max(512),
  port: z.int().min(1).max(65535),
});

const cidrBlocks = z.strictObject({ cidrBlocks: z.array(z.string()) });

export const clusterNetworkSchema = z.strictObject({
  apiServerPort: z.int().min(1).max(65535).optional(),
  services: cidrBlocks.optional(),
  pods: cidrBlocks.optional(),
  serviceDomain: z.string().max(253).optional(),
});

export const clusterTopologySchema = z.strictObject({
  classRef: z.strictObject({ name: z.string().min(1), namespace: z.string().optional() }),
  version: z.string().min(1).max(256),
  controlPlane: openRecord.optional(),
  workers: z
    .strictObject({
      machineDeployments: z.array(z.looseObject({ class: z.string().min(1), name: z.string().min(1) })).optional(),
      machinePools: z.array(openRecord).optional(),
    })
    .optional(),
  variables: z.array(z.looseObject({ name: z.string().min(1), value: z.unknown() })).optional(),
});

export const clusterSpecSchema = z.strictObject({
  paused: z.boolean().optional(),
  clusterNetwork: clusterNetworkSchema.optional(),
  controlPlaneEndpoint: apiEndpointSchema.optional(),
  controlPlaneRef: contractRefSchema.optional(),
  infrastructureRef: contractRefSchema.optional(),
  topology: clusterTopologySchema.optional(),
  availabilityGates: z
    .array(z.strictObject({ conditionType: z.string().min(1), polarity: z.enum(['Positive', 'Negative']).optional() }))
    .optional(),
});

const replicaCounters = z.looseObject({
  desiredReplicas: z.int().optional(),
  replicas: z.int().optional(),
  upToDateReplicas: z.int().optional(),
  readyReplicas: z.int().optional(),
  availableReplicas: z.int().optional(),
});

export const failureDomainSchema = z.looseObject({
  name: z.string().min(1),
  controlPlane: z.boolean().optional(),
  attributes: z.record(z.string(), z.string()).optional(),
});

export const clusterStatusSchema = baseStatusSchema.extend({
  initialization: z
    .looseObject({
      infrastructureProvisioned: z.boolean().optional(),
      controlPlaneInitialized: z.boolean().optional(),
    })
    .optional(),
  controlPlane: replicaCounters.optional(),
  workers: replicaCounters.optional(),
  failureDomains: z.array(failureDomainSchema).optional(),
  phase: z.string().optional(),
});

export const clusterSchema = z.strictObject({
  ...envelope,
  spec: clusterSpecSchema.optional(),
  status: clusterStatusSchema.optional(),
});

export type Cluster = z.infer<typeof clusterSchema>;
export type ClusterSpec = z.infer<typeof clusterSpecSchema>;
export type ClusterStatus = z.infer<typeof clusterStatusSchema>;
export type ApiEndpoint = z.infer<typeof apiEndpointSchema>;
