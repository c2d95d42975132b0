/**
 * The default provider registry: core, kubeadm bootstrap, kubeadm control plane and in-memory
 * infrastructure with their reconcilers; Docker kinds are accepted but nothing reconciles them.
 * Each is registered exactly as an external provider would be.
 */

import {
  CORE_PROVIDER,
  DOCKER_PROVIDER,
  IN_MEMORY_PROVIDER,
  KUBEADM_BOOTSTRAP_PROVIDER,
  KUBEADM_CONTROL_PLANE_PROVIDER,
} from '../../../../shared/contracts/providers/builtin-providers.js';
import { clusterReconciler } from '../../core/cluster/reconciler.js';
import { inMemoryClusterReconciler } from '../../infrastructure/inmemory/cluster/reconciler.js';
import { inMemoryMachineReconciler } from '../../infrastructure/inmemory/machine/reconciler.js';
import { kubeadmConfigReconciler } from '../../kubeadm/bootstrap/reconciler.js';
import { kubeadmControlPlaneReconciler } from '../../kubeadm/controlplane/reconciler.js';
import { machineReconciler } from '../../core/machine/reconciler.js';
import { machineDeploymentReconciler } from '../../core/machinedeployment/reconciler.js';
import { machineSetReconciler } from '../../core/machineset/reconciler.js';
import { extensionConfigReconciler } from '../../runtime/extension-config/reconciler.js';
import { ProviderRegistry } from './provider-registry.js';

export function builtinProviderRegistry(): ProviderRegistry {
  return new ProviderRegistry()
    .registerProvider({
      ...CORE_PROVIDER,
      reconcilers: [clusterReconciler, machineDeploymentReconciler, machineSetReconciler, machineReconciler, extensionConfigReconciler],
    })
    .registerProvider({ ...KUBEADM_BOOTSTRAP_PROVIDER, reconcilers: [kubeadmConfigReconciler] })
    .registerProvider({ ...KUBEADM_CONTROL_PLANE_PROVIDER, reconcilers: [kubeadmControlPlaneReconciler] })
    .registerProvider({ ...IN_MEMORY_PROVIDER, reconcilers: [inMemoryClusterReconciler, inMemoryMachineReconciler] })
    .registerProvider({ ...DOCKER_PROVIDER, reconcilers: [] });
}

/** Alias used by the embedded control plane (local/control-plane.ts). */
export const builtinProviders = builtinProviderRegistry;
