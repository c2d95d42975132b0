/**
 * ClusterClass `cluster.x-k8s.io/v1beta2` (clusterclass-runtime-sdk.md §1): the top level and the
 * parts the topology controller reads are checked; blocks it only carries along are kept loosely.
 */

import { z } from 'zod';
import { envelope } from '../common/envelope.js';
import { templateMetaSchema } from '../common/metadata.js';
import { int32 } from '../common/names.js';
import { baseStatusSchema } from '../common/status.js';
import { topologyDeletionSchema, topologyHealthCheckSchema } from './health-check.js';

/** `{apiVersion, kind, name}`, all required; the template lives in the ClusterClass's namespace. */
export const classTemplateRefSchema = z.strictObject({
  apiVersion: z.string().min(1).max(317),
  kind: z.string().min(1).max(63),
  name: z.string().min(1).max(253),
});
export type ClassTemplateRef = z.infer<typeof classTemplateRefSchema>;

const withTemplateRef = z.looseObject({ templateRef: classTemplateRefSchema });
const namingSchema = z.strictObject({ template: z.string().min(1).max(1024).optional() });

export const controlPlaneClassSchema = z.looseObject({
  metadata: templateMetaSchema.optional(),
  templateRef: classTemplateRefSchema,
  machineInfrastructure: withTemplateRef.optional(),
  healthCheck: topologyHealthCheckSchema.optional(),
  naming: namingSchema.optional(),
  deletion: topologyDeletionSchema.optional(),
});

export const machineDeploymentClassSchema = z.looseObject({
  metadata: templateMetaSchema.optional(),
  class: z.string().min(1).max(256),
  bootstrap: withTemplateRef,
  infrastructure: withTemplateRef,
  healthCheck: topologyHealthCheckSchema.optional(),
  failureDomain: z.string().min(1).max(256).optional(),
  naming: namingSchema.optional(),
  deletion: topologyDeletionSchema.optional(),
  minReadySeconds: int32().min(0).optional(),
});

export const machinePoolClassSchema = z.looseObject({
  class: z.string().min(1).max(256),
  bootstrap: withTemplateRef,
  infrastructure: withTemplateRef,
});

export const variableSchemaSchema = z.looseObject({ openAPIV3Schema: z.record(z.string(), z.unknown()) });

export const clusterClassVariableSchema = z.looseObject({
  name: z.string().min(1).max(256),
  required: z.boolean(),
  schema: variableSchemaSchema,
});
export type ClusterClassVariable = z.infer<typeof clusterClassVariableSchema>;

const matchResourcesSchema = z.strictObject({
  controlPlane: z.boolean().optional(),
  infrastructureCluster: z.boolean().optional(),
  machineDeploymentClass: z.strictObject({ names: z.array(z.string().min(1).max(256)).optional() }).optional(),
  machinePoolClass: z.strictObject({ names: z.array(z.string().min(1).max(256)).optional() }).optional(),
});

export const jsonPatchSchema = z.strictObject({
  op: z.enum(['add', 'replace', 'remove']),
  path: z.string().min(1).max(512),
  value: z.unknown().optional(),
  valueFrom: z
    .strictObject({ variable: z.string().min(1).max(256).optional(), template: z.string().min(1).max(10240).optional() })
    .optional(),
});
export type ClassJsonPatch = z.infer<typeof jsonPatchSchema>;

export const patchDefinitionSchema = z.strictObject({
  selector: z.strictObject({
    apiVersion: z.string().min(1).max(512),
    kind: z.string().min(1).max(256),
    matchResources: matchResourcesSchema,
  }),
  jsonPatches: z.array(jsonPatchSchema).max(100),
});
export type PatchDefinition = z.infer<typeof patchDefinitionSchema>;

export const clusterClassPatchSchema = z.strictObject({
  name: z.string().min(1).max(256),
  description: z.string().max(1024).optional(),
  enabledIf: z.string().min(1).max(256).optional(),
  definitions: z.array(patchDefinitionSchema).max(100).optional(),
  external: z.looseObject({}).optional(),
});
export type ClusterClassPatch = z.infer<typeof clusterClassPatchSchema>;

export const clusterClassSpecSchema = z.looseObject({
  availabilityGates: z.array(z.looseObject({ conditionType: z.string().min(1) })).optional(),
  infrastructure: z.looseObject({ templateRef: classTemplateRefSchema, naming: namingSchema.optional() }),
  controlPlane: controlPlaneClassSchema,
  workers: z
    .looseObject({
      machineDeployments: z.array(machineDeploymentClassSchema).optional(),
      machinePools: z.array(machinePoolClassSchema).optional(),
    })
    .optional(),
  variables: z.array(clusterClassVariableSchema).optional(),
  patches: z.array(clusterClassPatchSchema).optional(),
  upgrade: z.looseObject({}).optional(),
  kubernetesVersions: z.array(z.string().min(1).max(256)).optional(),
});

export const clusterClassStatusSchema = baseStatusSchema.extend({
  variables: z.array(z.looseObject({ name: z.string() })).optional(),
});

export const clusterClassSchema = z.strictObject({
  ...envelope,
  spec: clusterClassSpecSchema,
  status: clusterClassStatusSchema.optional(),
});

export type ClusterClass = z.infer<typeof clusterClassSchema>;
export type ClusterClassSpec = z.infer<typeof clusterClassSpecSchema>;
