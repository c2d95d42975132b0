/**
 * The field descriptions of Cluster API's CRDs, vendored by scripts/vendor-crd-descriptions.mjs
 * (Apache-2.0, from the storage version's openAPIV3Schema): what `kubectl explain` prints. Keyed
 * by field path: dotted, `[]` for array items, `*` for map values, "" for the object itself.
 */

import { isRecord, type JsonRecord } from '../json.js';
import bootstrapKubeadmconfigs from './descriptions/bootstrap.cluster.x-k8s.io_kubeadmconfigs.json' with { type: 'json' };
import bootstrapKubeadmconfigtemplates from './descriptions/bootstrap.cluster.x-k8s.io_kubeadmconfigtemplates.json' with { type: 'json' };
import coreClusterclasses from './descriptions/cluster.x-k8s.io_clusterclasses.json' with { type: 'json' };
import coreClusters from './descriptions/cluster.x-k8s.io_clusters.json' with { type: 'json' };
import coreMachinedeployments from './descriptions/cluster.x-k8s.io_machinedeployments.json' with { type: 'json' };
import coreMachinedrainrules from './descriptions/cluster.x-k8s.io_machinedrainrules.json' with { type: 'json' };
import coreMachinehealthchecks from './descriptions/cluster.x-k8s.io_machinehealthchecks.json' with { type: 'json' };
import coreMachines from './descriptions/cluster.x-k8s.io_machines.json' with { type: 'json' };
import coreMachinesets from './descriptions/cluster.x-k8s.io_machinesets.json' with { type: 'json' };
import clusterctlMetadata from './descriptions/clusterctl.cluster.x-k8s.io_metadata.json' with { type: 'json' };
import clusterctlProviders from './descriptions/clusterctl.cluster.x-k8s.io_providers.json' with { type: 'json' };
import controlplaneKubeadmcontrolplanes from './descriptions/controlplane.cluster.x-k8s.io_kubeadmcontrolplanes.json' with { type: 'json' };
import ipamIpaddressclaims from './descriptions/ipam.cluster.x-k8s.io_ipaddressclaims.json' with { type: 'json' };
import ipamIpaddresses from './descriptions/ipam.cluster.x-k8s.io_ipaddresses.json' with { type: 'json' };
import runtimeExtensionconfigs from './descriptions/runtime.cluster.x-k8s.io_extensionconfigs.json' with { type: 'json' };

const VENDORED: readonly unknown[] = [bootstrapKubeadmconfigs, bootstrapKubeadmconfigtemplates, coreClusterclasses, coreClusters, coreMachinedeployments, coreMachinedrainrules, coreMachinehealthchecks, coreMachines, coreMachinesets, clusterctlMetadata, clusterctlProviders, controlplaneKubeadmcontrolplanes, ipamIpaddressclaims, ipamIpaddresses, runtimeExtensionconfigs];

/** `group/Kind` → field path → description. */
const BY_KIND = new Map<string, ReadonlyMap<string, string>>();
for (const document of VENDORED) {
  if (!isRecord(document) || typeof document.group !== 'string' || typeof document.kind !== 'string' || !isRecord(document.descriptions)) continue;
  const descriptions = new Map<string, string>();
  for (const [path, text] of Object.entries(document.descriptions)) if (typeof text === 'string') descriptions.set(path, text);
  BY_KIND.set(`${document.group}/${document.kind}`, descriptions);
}

/** Cluster API's descriptions of a kind's fields, when it is one of Cluster API's. */
export function crdDescriptions(group: string, kind: string): ReadonlyMap<string, string> | undefined {
  return BY_KIND.get(`${group}/${kind}`);
}

/**
 * Puts each description on the schema node at its path (in place): through `properties`,
 * `items` (`[]`), `additionalProperties` (`*`), and every branch of `anyOf`/`oneOf`/`allOf`.
 * Returns how many nodes got one.
 */
export function applyDescriptions(schema: JsonRecord, descriptions: ReadonlyMap<string, string>, path = ''): number {
  let applied = 0;
  const description = descriptions.get(path);
  if (description !== undefined && schema.description === undefined) {
    schema.description = description;
    applied++;
  }
  const child = (name: string) => (path === '' ? name : `${path}.${name}`);
  if (isRecord(schema.properties)) {
    for (const [name, node] of Object.entries(schema.properties)) if (isRecord(node)) applied += applyDescriptions(node, descriptions, child(name));
  }
  if (isRecord(schema.items)) applied += applyDescriptions(schema.items, descriptions, `${path}[]`);
  if (isRecord(schema.additionalProperties)) applied += applyDescriptions(schema.additionalProperties, descriptions, child('*'));
  for (const key of ['anyOf', 'oneOf', 'allOf']) {
    const branches = schema[key];
    if (!Array.isArray(branches)) continue;
    for (const branch of branches) if (isRecord(branch)) applied += applyBranch(branch, descriptions, path);
  }
  return applied;
}

/** A union's branch: its own fields are described, not the branch itself (the union node already is). */
function applyBranch(branch: JsonRecord, descriptions: ReadonlyMap<string, string>, path: string): number {
  const own = new Map(descriptions);
  own.delete(path);
  return applyDescriptions(branch, own, path);
}
