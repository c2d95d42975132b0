/**
 * The openAPIV3Schema of Cluster API's CRDs and the in-cluster IPAM provider's (storage version,
 * envelope left out), vendored by scripts/vendor-crd-schemas.mjs (Apache-2.0): admission checks
 * every object of these kinds against the schema the API server would (ADR 0120). Keyed
 * `group/Kind`.
 */

import type { StructuralSchema } from '../schemas/common/structural-schema.js';
import { kubeadmconfigCrdSchema } from './schemas/bootstrap.cluster.x-k8s.io_kubeadmconfigs.js';
import { kubeadmconfigtemplateCrdSchema } from './schemas/bootstrap.cluster.x-k8s.io_kubeadmconfigtemplates.js';
import { clusterclassCrdSchema } from './schemas/cluster.x-k8s.io_clusterclasses.js';
import { clusterCrdSchema } from './schemas/cluster.x-k8s.io_clusters.js';
import { machinedeploymentCrdSchema } from './schemas/cluster.x-k8s.io_machinedeployments.js';
import { machinedrainruleCrdSchema } from './schemas/cluster.x-k8s.io_machinedrainrules.js';
import { machinehealthcheckCrdSchema } from './schemas/cluster.x-k8s.io_machinehealthchecks.js';
import { machineCrdSchema } from './schemas/cluster.x-k8s.io_machines.js';
import { machinesetCrdSchema } from './schemas/cluster.x-k8s.io_machinesets.js';
import { metadataCrdSchema } from './schemas/clusterctl.cluster.x-k8s.io_metadata.js';
import { providerCrdSchema } from './schemas/clusterctl.cluster.x-k8s.io_providers.js';
import { kubeadmcontrolplaneCrdSchema } from './schemas/controlplane.cluster.x-k8s.io_kubeadmcontrolplanes.js';
import { globalinclusterippoolCrdSchema } from './schemas/ipam.cluster.x-k8s.io_globalinclusterippools.js';
import { inclusterippoolCrdSchema } from './schemas/ipam.cluster.x-k8s.io_inclusterippools.js';
import { ipaddressclaimCrdSchema } from './schemas/ipam.cluster.x-k8s.io_ipaddressclaims.js';
import { ipaddressCrdSchema } from './schemas/ipam.cluster.x-k8s.io_ipaddresses.js';
import { extensionconfigCrdSchema } from './schemas/runtime.cluster.x-k8s.io_extensionconfigs.js';

const CRD_SCHEMAS: ReadonlyMap<string, StructuralSchema> = new Map([
  ['bootstrap.cluster.x-k8s.io/KubeadmConfig', kubeadmconfigCrdSchema],
  ['bootstrap.cluster.x-k8s.io/KubeadmConfigTemplate', kubeadmconfigtemplateCrdSchema],
  ['cluster.x-k8s.io/ClusterClass', clusterclassCrdSchema],
  ['cluster.x-k8s.io/Cluster', clusterCrdSchema],
  ['cluster.x-k8s.io/MachineDeployment', machinedeploymentCrdSchema],
  ['cluster.x-k8s.io/MachineDrainRule', machinedrainruleCrdSchema],
  ['cluster.x-k8s.io/MachineHealthCheck', machinehealthcheckCrdSchema],
  ['cluster.x-k8s.io/Machine', machineCrdSchema],
  ['cluster.x-k8s.io/MachineSet', machinesetCrdSchema],
  ['clusterctl.cluster.x-k8s.io/Metadata', metadataCrdSchema],
  ['clusterctl.cluster.x-k8s.io/Provider', providerCrdSchema],
  ['controlplane.cluster.x-k8s.io/KubeadmControlPlane', kubeadmcontrolplaneCrdSchema],
  ['ipam.cluster.x-k8s.io/GlobalInClusterIPPool', globalinclusterippoolCrdSchema],
  ['ipam.cluster.x-k8s.io/InClusterIPPool', inclusterippoolCrdSchema],
  ['ipam.cluster.x-k8s.io/IPAddressClaim', ipaddressclaimCrdSchema],
  ['ipam.cluster.x-k8s.io/IPAddress', ipaddressCrdSchema],
  ['runtime.cluster.x-k8s.io/ExtensionConfig', extensionconfigCrdSchema],
]);

/** The vendored schema of a kind (envelope left out), when the kind is one of these. */
export function crdSchema(group: string, kind: string): StructuralSchema | undefined {
  return CRD_SCHEMAS.get(`${group}/${kind}`);
}
