/**
 * clusterctl's Provider inventory for capless: one `clusterctl.cluster.x-k8s.io/v1alpha3` Provider
 * per installed provider (name, type, version), and beside it a Metadata object of the same name
 * carrying the provider's release series and, in an annotation, the versions its repository offers
 * (what `upgrade plan` chooses from). The built-in providers ship with capless itself: their version
 * is capless's, and so are their metadata and available versions.
 */

import type { KubeObject } from '../object.js';
import type { ProviderType } from '../provider-contract.js';
import { BUILTIN_PROVIDERS } from '../providers/builtin-providers.js';
import { LABEL_CLUSTERCTL, LABEL_PROVIDER } from './labels.js';
import type { ProviderMetadata } from './metadata.js';

export const CLUSTERCTL_API_VERSION = 'clusterctl.cluster.x-k8s.io/v1alpha3';
/** Where capless records the inventory of its built-in providers. */
export const INVENTORY_NAMESPACE = 'capless-system';
export const ANNOTATION_AVAILABLE_VERSIONS = 'capless.dev/available-versions';
/** The contract this capless serves (Cluster API v1beta2). */
export const CAPLESS_CONTRACT = 'v1beta2';
/** capless's own version (package.json), the version of every built-in provider. */
export const CAPLESS_VERSION = 'v0.1.0';

const PREFIX: Record<ProviderType, string> = {
  CoreProvider: '',
  BootstrapProvider: 'bootstrap-',
  ControlPlaneProvider: 'control-plane-',
  InfrastructureProvider: 'infrastructure-',
  IPAMProvider: 'ipam-',
  RuntimeExtensionProvider: 'runtime-extension-',
  AddonProvider: 'addon-',
};

const TYPE_BY_WORD: Record<string, ProviderType> = {
  core: 'CoreProvider',
  bootstrap: 'BootstrapProvider',
  'control-plane': 'ControlPlaneProvider',
  controlplane: 'ControlPlaneProvider',
  infrastructure: 'InfrastructureProvider',
  ipam: 'IPAMProvider',
  'runtime-extension': 'RuntimeExtensionProvider',
  addon: 'AddonProvider',
};

export function providerTypeOf(word: string): ProviderType | undefined {
  return TYPE_BY_WORD[word.toLowerCase()];
}

/** clusterctl's inventory name (`ManifestLabel`): `cluster-api`, `bootstrap-kubeadm`, `infrastructure-in-memory`. */
export function inventoryName(type: ProviderType, providerName: string): string {
  return type === 'CoreProvider' ? 'cluster-api' : `${PREFIX[type]}${providerName}`;
}

export interface InventoryEntry {
  providerName: string;
  type: ProviderType;
  version: string;
  namespace: string;
  metadata: ProviderMetadata;
  availableVersions: string[];
}

/** The built-in providers capless runs (Docker kinds are only accepted, not reconciled: not a provider here). */
export function builtinInventory(): InventoryEntry[] {
  const metadata: ProviderMetadata = { releaseSeries: [{ major: 0, minor: 1, contract: CAPLESS_CONTRACT }] };
  return BUILTIN_PROVIDERS.filter((p) => p.name !== 'docker').map((p) => ({
    providerName: p.name,
    type: p.type,
    version: CAPLESS_VERSION,
    namespace: INVENTORY_NAMESPACE,
    metadata,
    availableVersions: [CAPLESS_VERSION],
  }));
}

/** The Provider object and its Metadata companion for one entry. */
export function inventoryObjects(entry: InventoryEntry): { provider: KubeObject; metadata: KubeObject } {
  const name = inventoryName(entry.type, entry.providerName);
  const labels = { [LABEL_CLUSTERCTL]: '', [LABEL_PROVIDER]: name };
  const meta = { name, namespace: entry.namespace, labels };
  const provider = { apiVersion: CLUSTERCTL_API_VERSION, kind: 'Provider', metadata: meta, providerName: entry.providerName, type: entry.type, version: entry.version };
  const metadata = {
    apiVersion: CLUSTERCTL_API_VERSION,
    kind: 'Metadata',
    metadata: { ...meta, annotations: { [ANNOTATION_AVAILABLE_VERSIONS]: entry.availableVersions.join(',') } },
    releaseSeries: entry.metadata.releaseSeries,
  };
  return { provider, metadata };
}
