/**
 * The zod schema of each served kind, in its storage version. Kinds registered at run time
 * without a schema here (third-party providers) are admitted with `looseKindSchema`.
 */

import type { z } from 'zod';
import type { KubeObject } from '../object.js';
import { kubeadmConfigSchema, kubeadmConfigTemplateSchema } from './bootstrap/kubeadm-config.js';
import { clusterctlMetadataSchema, clusterctlProviderSchema } from './clusterctl/clusterctl.js';
import { looseKindSchema } from './common/envelope.js';
import { kubeadmControlPlaneSchema, kubeadmControlPlaneTemplateSchema } from './controlplane/kubeadm-control-plane.js';
import { clusterSchema } from './core/cluster.js';
import { clusterClassSchema } from './core/cluster-class.js';
import { machineSchema } from './core/machine.js';
import { machineDeploymentSchema } from './core/machine-deployment.js';
import { machineDrainRuleSchema } from './core/machine-drain-rule.js';
import { machineHealthCheckSchema } from './core/machine-health-check.js';
import { machineSetSchema } from './core/machine-set.js';
import { configMapSchema } from './corev1/config-map.js';
import { namespaceSchema } from './corev1/namespace.js';
import { secretSchema } from './corev1/secret.js';
import {
  BOOTSTRAP_GROUP,
  CLUSTER_GROUP,
  CLUSTERCTL_GROUP,
  CONTROL_PLANE_GROUP,
  CORE_GROUP,
  INFRASTRUCTURE_GROUP,
  IPAM_GROUP,
  RUNTIME_GROUP,
  ADDONS_GROUP,
} from './groups.js';
import {
  dockerClusterSchema,
  dockerClusterTemplateSchema,
  dockerMachineSchema,
  dockerMachineTemplateSchema,
} from './infrastructure/docker.js';
import {
  devClusterSchema,
  devClusterTemplateSchema,
  devMachinePoolTemplateSchema,
  devMachineSchema,
  devMachineTemplateSchema,
} from './infrastructure/dev.js';
import {
  inMemoryClusterSchema,
  inMemoryClusterTemplateSchema,
  inMemoryMachineSchema,
  inMemoryMachineTemplateSchema,
} from './infrastructure/in-memory.js';
import { inClusterIPPoolSchema } from './ipam/in-cluster-ip-pool.js';
import { awsClusterSchema, awsClusterTemplateSchema, awsMachineSchema, awsMachineTemplateSchema } from './infrastructure/aws/aws.js';
import { ipAddressClaimSchema, ipAddressSchema } from './ipam/ip-address.js';
import { extensionConfigSchema } from './runtime/extension-config.js';
import { clusterResourceSetBindingSchema, clusterResourceSetSchema } from './addons/cluster-resource-set.js';

const entries: ReadonlyArray<readonly [string, string, z.ZodType<KubeObject>]> = [
  [CORE_GROUP, 'Secret', secretSchema],
  [CORE_GROUP, 'ConfigMap', configMapSchema],
  [CORE_GROUP, 'Namespace', namespaceSchema],
  [CLUSTER_GROUP, 'Cluster', clusterSchema],
  [CLUSTER_GROUP, 'Machine', machineSchema],
  [CLUSTER_GROUP, 'MachineSet', machineSetSchema],
  [CLUSTER_GROUP, 'MachineDeployment', machineDeploymentSchema],
  [CLUSTER_GROUP, 'MachineHealthCheck', machineHealthCheckSchema],
  [CLUSTER_GROUP, 'MachineDrainRule', machineDrainRuleSchema],
  [CLUSTER_GROUP, 'ClusterClass', clusterClassSchema],
  [BOOTSTRAP_GROUP, 'KubeadmConfig', kubeadmConfigSchema],
  [BOOTSTRAP_GROUP, 'KubeadmConfigTemplate', kubeadmConfigTemplateSchema],
  [CONTROL_PLANE_GROUP, 'KubeadmControlPlane', kubeadmControlPlaneSchema],
  [CONTROL_PLANE_GROUP, 'KubeadmControlPlaneTemplate', kubeadmControlPlaneTemplateSchema],
  [INFRASTRUCTURE_GROUP, 'InMemoryCluster', inMemoryClusterSchema],
  [INFRASTRUCTURE_GROUP, 'InMemoryClusterTemplate', inMemoryClusterTemplateSchema],
  [INFRASTRUCTURE_GROUP, 'InMemoryMachine', inMemoryMachineSchema],
  [INFRASTRUCTURE_GROUP, 'InMemoryMachineTemplate', inMemoryMachineTemplateSchema],
  [INFRASTRUCTURE_GROUP, 'DockerCluster', dockerClusterSchema],
  [INFRASTRUCTURE_GROUP, 'DockerClusterTemplate', dockerClusterTemplateSchema],
  [INFRASTRUCTURE_GROUP, 'DockerMachine', dockerMachineSchema],
  [INFRASTRUCTURE_GROUP, 'DockerMachineTemplate', dockerMachineTemplateSchema],
  [INFRASTRUCTURE_GROUP, 'DevCluster', devClusterSchema],
  [INFRASTRUCTURE_GROUP, 'DevClusterTemplate', devClusterTemplateSchema],
  [INFRASTRUCTURE_GROUP, 'DevMachine', devMachineSchema],
  [INFRASTRUCTURE_GROUP, 'DevMachineTemplate', devMachineTemplateSchema],
  [INFRASTRUCTURE_GROUP, 'DevMachinePoolTemplate', devMachinePoolTemplateSchema],
  [INFRASTRUCTURE_GROUP, 'AWSCluster', awsClusterSchema],
  [INFRASTRUCTURE_GROUP, 'AWSClusterTemplate', awsClusterTemplateSchema],
  [INFRASTRUCTURE_GROUP, 'AWSMachine', awsMachineSchema],
  [INFRASTRUCTURE_GROUP, 'AWSMachineTemplate', awsMachineTemplateSchema],
  [IPAM_GROUP, 'IPAddressClaim', ipAddressClaimSchema],
  [IPAM_GROUP, 'IPAddress', ipAddressSchema],
  [IPAM_GROUP, 'InClusterIPPool', inClusterIPPoolSchema],
  [IPAM_GROUP, 'GlobalInClusterIPPool', inClusterIPPoolSchema],
  [RUNTIME_GROUP, 'ExtensionConfig', extensionConfigSchema],
  [ADDONS_GROUP, 'ClusterResourceSet', clusterResourceSetSchema],
  [ADDONS_GROUP, 'ClusterResourceSetBinding', clusterResourceSetBindingSchema],
  [CLUSTERCTL_GROUP, 'Metadata', clusterctlMetadataSchema],
  [CLUSTERCTL_GROUP, 'Provider', clusterctlProviderSchema],
];

const byGroupKind = new Map(entries.map(([group, kind, schema]) => [`${group}/${kind}`, schema]));

/** The storage-version schema of a kind; `looseKindSchema` for kinds capless has no schema for. */
export function schemaFor(group: string, kind: string): z.ZodType<KubeObject> {
  return byGroupKind.get(`${group}/${kind}`) ?? looseKindSchema;
}

/** True when capless has a dedicated schema for the kind (false: accepted loosely). */
export function hasSchema(group: string, kind: string): boolean {
  return byGroupKind.has(`${group}/${kind}`);
}
