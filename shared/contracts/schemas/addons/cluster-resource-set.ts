/**
 * Cluster API's ClusterResourceSet and ClusterResourceSetBinding (addons.cluster.x-k8s.io/v1beta2),
 * admitted by Cluster API's own CRD schemas (./crd/). v1beta1 objects (CAPA's template) have the
 * same spec and are stored as v1beta2. Status is written by capless and kept tolerant.
 */
import { z } from 'zod';
import { envelope } from '../common/envelope.js';
import { baseStatusSchema } from '../common/status.js';
import { zodObjectFromStructural } from '../common/structural-schema.js';
import { clusterResourceSetBindingSpecCrdSchema } from './crd/clusterresourcesetbindings.js';
import { clusterResourceSetSpecCrdSchema } from './crd/clusterresourcesets.js';

/** The only Secret type a ClusterResourceSet applies (ClusterResourceSetSecretType). */
export const CLUSTER_RESOURCE_SET_SECRET_TYPE = 'addons.cluster.x-k8s.io/resource-set';
/** The finalizer Cluster API's ClusterResourceSet controller puts on every ClusterResourceSet. */
export const CLUSTER_RESOURCE_SET_FINALIZER = 'addons.cluster.x-k8s.io';

export const clusterResourceSetSchema = z.strictObject({
  ...envelope,
  spec: zodObjectFromStructural(clusterResourceSetSpecCrdSchema),
  status: baseStatusSchema.optional(),
});

export const clusterResourceSetBindingSchema = z.strictObject({
  ...envelope,
  spec: zodObjectFromStructural(clusterResourceSetBindingSpecCrdSchema),
});

const resourceRefSchema = z.object({ kind: z.enum(['Secret', 'ConfigMap']), name: z.string() });
const labelSelectorRequirement = z.object({ key: z.string(), operator: z.enum(['In', 'NotIn', 'Exists', 'DoesNotExist']), values: z.array(z.string()).optional() });
/** `spec.clusterSelector` as read (admission already checked it). */
export const clusterSelectorView = z.object({ matchLabels: z.record(z.string(), z.string()).optional(), matchExpressions: z.array(labelSelectorRequirement).optional() });
/** `spec.resources` as read: the ConfigMaps and Secrets of the set's namespace it applies. */
export const resourceRefsView = z.array(resourceRefSchema);

/** What the reconciler reads of a ClusterResourceSet's spec (admission already checked the rest). */
export const clusterResourceSetSpecView = z.object({
  clusterSelector: clusterSelectorView,
  resources: resourceRefsView,
  strategy: z.enum(['ApplyOnce', 'Reconcile']).optional(),
});
export type ClusterResourceSetSpec = z.infer<typeof clusterResourceSetSpecView>;
export type ResourceRef = z.infer<typeof resourceRefSchema>;

const resourceBindingSchema = z.object({
  kind: z.enum(['Secret', 'ConfigMap']),
  name: z.string(),
  applied: z.boolean(),
  hash: z.string().optional(),
  lastAppliedTime: z.string().optional(),
});
export type ResourceBinding = z.infer<typeof resourceBindingSchema>;

/** What the reconciler reads of a binding's spec. */
export const clusterResourceSetBindingSpecView = z.object({
  clusterName: z.string().optional(),
  bindings: z.array(z.object({ clusterResourceSetName: z.string(), resources: z.array(resourceBindingSchema).optional() })).optional(),
});
export type ClusterResourceSetBindingSpec = z.infer<typeof clusterResourceSetBindingSpecView>;
