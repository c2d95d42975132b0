import { z } from 'zod';
import { kubeadmConfigSpecSchema } from '../bootstrap/kubeadm-config-spec.js';
import { envelope } from '../common/envelope.js';
import { templateMetaSchema } from '../common/metadata.js';
import { contractRefSchema } from '../common/references.js';
import { openRecord } from '../common/status.js';
import { machineDeletionSchema, machineTaintSchema, readinessGateSchema } from '../core/machine-spec.js';
import { machineNamingSchema } from '../core/machine-set.js';
import { replicaStatusSchema } from '../core/replica-status.js';
import { int32, intOrString } from '../common/names.js';

export const kcpMachineTemplateSchema = z.strictObject({
  metadata: templateMetaSchema.optional(),
  spec: z.strictObject({
    infrastructureRef: contractRefSchema,
    readinessGates: z.array(readinessGateSchema).optional(),
    deletion: machineDeletionSchema.optional(),
    taints: z.array(machineTaintSchema).optional(),
  }),
});

export const kcpRolloutSchema = z.strictObject({
  after: z.string().optional(),
  before: z.strictObject({ certificatesExpiryDays: int32().min(7).optional() }).optional(),
  strategy: z
    .strictObject({
      type: z.enum(['RollingUpdate']),
      rollingUpdate: z.strictObject({ maxSurge: intOrString.optional() }).optional(),
    })
    .optional(),
});

export const kcpRemediationSchema = z.strictObject({
  maxRetry: int32().optional(),
  retryPeriodSeconds: int32().min(0).optional(),
  minHealthyPeriodSeconds: int32().min(0).optional(),
});

export const kubeadmControlPlaneSpecSchema = z.strictObject({
  replicas: int32().optional(),
  version: z.string().min(1).max(256),
  machineTemplate: kcpMachineTemplateSchema,
  kubeadmConfigSpec: kubeadmConfigSpecSchema.optional(),
  rollout: kcpRolloutSchema.optional(),
  remediation: kcpRemediationSchema.optional(),
  machineNaming: machineNamingSchema.optional(),
});

export const kubeadmControlPlaneStatusSchema = replicaStatusSchema.extend({
  initialization: z.looseObject({ controlPlaneInitialized: z.boolean().optional() }).optional(),
  version: z.string().optional(),
  versions: z.array(z.looseObject({ version: z.string(), replicas: int32().optional() })).optional(),
  lastRemediation: z.looseObject({ retryCount: int32().min(0).optional() }).optional(),
});

export const kubeadmControlPlaneSchema = z.strictObject({
  ...envelope,
  spec: kubeadmControlPlaneSpecSchema,
  status: kubeadmControlPlaneStatusSchema.optional(),
});

/** KubeadmControlPlaneTemplate (ClusterClass only): accepted with a loose template spec. */
export const kubeadmControlPlaneTemplateSchema = z.strictObject({
  ...envelope,
  spec: z.strictObject({
    template: z.strictObject({ metadata: templateMetaSchema.optional(), spec: openRecord.optional() }),
  }),
});

export type KubeadmControlPlane = z.infer<typeof kubeadmControlPlaneSchema>;
export type KubeadmControlPlaneSpec = z.infer<typeof kubeadmControlPlaneSpecSchema>;
export type KubeadmControlPlaneStatus = z.infer<typeof kubeadmControlPlaneStatusSchema>;
export type KubeadmControlPlaneTemplate = z.infer<typeof kubeadmControlPlaneTemplateSchema>;
