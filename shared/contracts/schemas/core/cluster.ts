import { z } from 'zod';
import { envelope } from '../common/envelope.js';
import { templateMetaSchema } from '../common/metadata.js';
import { int32, intOrString } from '../common/names.js';
import { contractRefSchema } from '../common/references.js';
import { baseStatusSchema } from '../common/status.js';
import { topologyDeletionSchema, topologyHealthCheckSchema } from './health-check.js';

export const apiEndpointSchema = z.strictObject({
  host: z.string().max(512),
  port: int32().min(1).max(65535),
});

const cidrBlocks = z.strictObject({ cidrBlocks: z.array(z.string()) });

export const clusterNetworkSchema = z.strictObject({
  apiServerPort: int32().min(1).max(65535).optional(),
  services: cidrBlocks.optional(),
  pods: cidrBlocks.optional(),
  serviceDomain: z.string().max(253).optional(),
});

/** What a topology control plane and its worker pools share (the rest is accepted as is). */
const topologyReplicasShape = {
  metadata: templateMetaSchema.optional(),
  replicas: int32().optional(),
  deletion: topologyDeletionSchema.optional(),
};

const topologyWorkerShape = {
  ...topologyReplicasShape,
  class: z.string().min(1),
  name: z.string().min(1),
  minReadySeconds: int32().min(0).optional(),
};

export const clusterTopologySchema = z.strictObject({
  classRef: z.strictObject({ name: z.string().min(1), namespace: z.string().optional() }),
  version: z.string().min(1).max(256),
  controlPlane: z.looseObject({ ...topologyReplicasShape, healthCheck: topologyHealthCheckSchema.optional() }).optional(),
  workers: z
    .strictObject({
      machineDeployments: z
        .array(
          z.looseObject({
            ...topologyWorkerShape,
            healthCheck: topologyHealthCheckSchema.optional(),
            rollout: z
              .looseObject({
                strategy: z
                  .looseObject({
                    rollingUpdate: z
                      .looseObject({ maxSurge: intOrString.optional(), maxUnavailable: intOrString.optional() })
                      .optional(),
                  })
                  .optional(),
              })
              .optional(),
          }),
        )
        .optional(),
      machinePools: z.array(z.looseObject(topologyWorkerShape)).optional(),
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
  desiredReplicas: int32().optional(),
  replicas: int32().optional(),
  upToDateReplicas: int32().optional(),
  readyReplicas: int32().optional(),
  availableReplicas: int32().optional(),
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
  // Required, as Cluster API's CRD has it (`{}` is enough).
  spec: clusterSpecSchema,
  status: clusterStatusSchema.optional(),
});

export type Cluster = z.infer<typeof clusterSchema>;
export type ClusterSpec = z.infer<typeof clusterSpecSchema>;
export type ClusterStatus = z.infer<typeof clusterStatusSchema>;
export type ApiEndpoint = z.infer<typeof apiEndpointSchema>;
