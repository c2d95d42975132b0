/**
 * The default provider registry: core, kubeadm bootstrap, kubeadm control plane and in-memory
 * infrastructure and Cluster API Provider AWS with their reconcilers; Docker kinds are accepted but nothing reconciles them.
 * Each is registered exactly as an external provider would be.
 */

import {
  CORE_PROVIDER,
  DEV_PROVIDER,
  DOCKER_PROVIDER,
  IN_CLUSTER_IPAM_PROVIDER,
  IN_MEMORY_PROVIDER,
  KUBEADM_BOOTSTRAP_PROVIDER,
  KUBEADM_CONTROL_PLANE_PROVIDER,
} from '../../../../shared/contracts/providers/builtin-providers.js';
import { AWS_PROVIDER } from '../../../../shared/contracts/providers/aws/aws-provider.js';
import { clusterReconciler } from '../../core/cluster/reconciler.js';
import { ipAddressClaimReconciler } from '../../ipam/claim/reconciler.js';
import { globalInClusterIPPoolReconciler, inClusterIPPoolReconciler } from '../../ipam/pool/reconciler.js';
import { clusterClassReconciler } from '../../topology/clusterclass/reconciler.js';
import { devClusterReconciler } from '../../infrastructure/dev/cluster-reconciler.js';
import { devMachineReconciler } from '../../infrastructure/dev/machine-reconciler.js';
import { awsClusterReconciler } from '../../infrastructure/aws/cluster/reconciler.js';
import { awsMachineReconciler } from '../../infrastructure/aws/machine/reconciler.js';
import { awsMachineTemplateReconciler } from '../../infrastructure/aws/machine-template/reconciler.js';
import { inMemoryClusterReconciler } from '../../infrastructure/inmemory/cluster/reconciler.js';
import { inMemoryMachineReconciler } from '../../infrastructure/inmemory/machine/reconciler.js';
import { kubeadmConfigReconciler } from '../../kubeadm/bootstrap/reconciler.js';
import { kubeadmControlPlaneReconciler } from '../../kubeadm/controlplane/reconciler.js';
import { machineReconciler } from '../../core/machine/reconciler.js';
import { machineHealthCheckReconciler } from '../../core/machinehealthcheck/reconciler.js';
import { machineDeploymentReconciler } from '../../core/machinedeployment/reconciler.js';
import { machineSetReconciler } from '../../core/machineset/reconciler.js';
import { extensionConfigReconciler } from '../../runtime/extension-config/reconciler.js';
import { clusterResourceSetReconciler } from '../../addons/clusterresourceset/reconciler.js';
import { ProviderRegistry } from './provider-registry.js';

export function builtinProviderRegistry(): ProviderRegistry {
  return new ProviderRegistry()
    .registerProvider({
      ...CORE_PROVIDER,
      reconcilers: [clusterReconciler, clusterClassReconciler, machineDeploymentReconciler, machineSetReconciler, machineReconciler, machineHealthCheckReconciler, extensionConfigReconciler, clusterResourceSetReconciler],
    })
    .registerProvider({ ...KUBEADM_BOOTSTRAP_PROVIDER, reconcilers: [kubeadmConfigReconciler] })
    .registerProvider({ ...KUBEADM_CONTROL_PLANE_PROVIDER, reconcilers: [kubeadmControlPlaneReconciler] })
    .registerProvider({ ...IN_MEMORY_PROVIDER, reconcilers: [inMemoryClusterReconciler, inMemoryMachineReconciler] })
    .registerProvider({ ...DOCKER_PROVIDER, reconcilers: [] })
    .registerProvider({
      ...IN_CLUSTER_IPAM_PROVIDER,
      reconcilers: [ipAddressClaimReconciler, inClusterIPPoolReconciler, globalInClusterIPPoolReconciler],
    })
    .registerProvider({ ...DEV_PROVIDER, reconcilers: [devClusterReconciler, devMachineReconciler] })
    .registerProvider({ ...AWS_PROVIDER, reconcilers: [awsClusterReconciler, awsMachineReconciler, awsMachineTemplateReconciler] });
}

/** Alias used by the embedded control plane (local/control-plane.ts). */
export const builtinProviders = builtinProviderRegistry;
