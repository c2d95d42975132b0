/**
 * The `apiextensions.k8s.io/v1` CustomResourceDefinition of a kind capless serves, derived from its
 * registration (names, scope, versions, printer columns) and its schema (the same one the OpenAPI
 * documents publish), with Cluster API's contract labels so clusterctl and the core's contract
 * resolution find what they look for (capi-contract.md §2.1).
 */

import {
  CLUSTERCTL_CORE_INVENTORY,
  LABEL_CLUSTERCTL,
  LABEL_CLUSTERCTL_CORE,
  LABEL_CLUSTERCTL_MOVE,
  LABEL_CLUSTERCTL_MOVE_HIERARCHY,
  LABEL_PROVIDER,
} from '../clusterctl/labels.js';
import type { JsonRecord } from '../json.js';
import type { KindInfo, ScaleSubresource } from '../kinds.js';
import { openApiSchemaOf } from '../openapi.js';
import type { ContractVersion } from '../provider-contract.js';

export const CRD_API_VERSION = 'apiextensions.k8s.io/v1';
const CONTRACTS: readonly ContractVersion[] = ['v1beta1', 'v1beta2'];

/** True for kinds served as custom resources (everything outside the core `""` group). */
export function isCustomResource(info: KindInfo): boolean {
  return info.group !== '';
}

export function crdName(info: KindInfo): string {
  return `${info.plural}.${info.group}`;
}

/**
 * `cluster.x-k8s.io/<contract>: <versions>` labels as Cluster API's own CRDs carry them: one label
 * per contract the kind has a same-named version for, up to the contract its provider follows
 * (CABPK: `v1beta1: v1beta1` and `v1beta2: v1beta2`); a provider on the v1beta1 contract labels
 * every served version with it (CAPA: `v1beta1: v1beta1_v1beta2`).
 */
export function contractLabels(info: KindInfo, contract: ContractVersion | undefined): Record<string, string> {
  if (contract === 'v1beta1') return { 'cluster.x-k8s.io/v1beta1': [...info.versions].sort().join('_') };
  const labels: Record<string, string> = {};
  for (const version of CONTRACTS) if (info.versions.includes(version)) labels[`cluster.x-k8s.io/${version}`] = version;
  return labels;
}

export interface CrdLabelOptions {
  contract?: ContractVersion;
  /** clusterctl's inventory name of the provider that serves the kind (`cluster-api`, `infrastructure-in-memory`). */
  provider?: string;
}

/**
 * Every label of a kind's CRD: its contract labels and the ones clusterctl gives the components it
 * installs (`clusterctl.cluster.x-k8s.io`, `cluster.x-k8s.io/provider`), which `clusterctl move`
 * discovers the kinds to move by, with the kind's move label if it has one. clusterctl's own
 * inventory kinds carry its core label instead.
 */
export function crdLabels(info: KindInfo, options: CrdLabelOptions): Record<string, string> {
  if (info.group === CLUSTERCTL_GROUP) return { [LABEL_CLUSTERCTL_CORE]: CLUSTERCTL_CORE_INVENTORY };
  const labels = contractLabels(info, options.contract);
  if (options.provider === undefined) return labels;
  const move = info.clusterctlMove && { [info.clusterctlMove === 'move' ? LABEL_CLUSTERCTL_MOVE : LABEL_CLUSTERCTL_MOVE_HIERARCHY]: '' };
  return { ...labels, [LABEL_CLUSTERCTL]: '', [LABEL_PROVIDER]: options.provider, ...move };
}

const CLUSTERCTL_GROUP = 'clusterctl.cluster.x-k8s.io';

export function customResourceDefinition(info: KindInfo, options: CrdLabelOptions & { creationTimestamp: string }): JsonRecord {
  const names = {
    plural: info.plural,
    singular: info.kind.toLowerCase(),
    kind: info.kind,
    listKind: `${info.kind}List`,
    ...(info.shortNames && info.shortNames.length > 0 ? { shortNames: [...info.shortNames] } : {}),
    categories: ['cluster-api'],
  };
  const storage = info.versions[0];
  return {
    apiVersion: CRD_API_VERSION,
    kind: 'CustomResourceDefinition',
    metadata: {
      name: crdName(info),
      labels: crdLabels(info, options),
      annotations: { 'capless.dev/generated-from': 'kind registration and schema' },
      // Stable for a given server: generated, never written, so it never changes.
      resourceVersion: '1',
      generation: 1,
      uid: stableUid(crdName(info)),
      creationTimestamp: options.creationTimestamp,
    },
    spec: {
      group: info.group,
      names,
      scope: info.namespaced ? 'Namespaced' : 'Cluster',
      versions: info.versions.map((name) => ({
        name,
        served: true,
        storage: name === storage,
        schema: { openAPIV3Schema: openApiSchemaOf(info, name) },
        ...subresourcesOf(info),
        ...(info.printerColumns && info.printerColumns.length > 0 ? { additionalPrinterColumns: info.printerColumns.map((c) => ({ ...c })) } : {}),
      })),
      conversion: { strategy: 'None' },
    },
    status: {
      acceptedNames: names,
      storedVersions: storage ? [storage] : [],
      conditions: [
        { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found', lastTransitionTime: options.creationTimestamp },
        { type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted', lastTransitionTime: options.creationTimestamp },
      ],
    },
  };
}

/** A UUID-shaped id derived from the name (FNV-1a), the same on every start. */
function stableUid(name: string): string {
  const hex = [0, 1, 2, 3]
    .map((seed) => {
      let hash = 0x811c9dc5 ^ seed;
      for (const char of name) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193) >>> 0;
      return hash.toString(16).padStart(8, '0');
    })
    .join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** `subresources` of a version, as the kind declares them (none: the key is absent). */
function subresourcesOf(info: KindInfo): { subresources?: { status?: Record<string, never>; scale?: ScaleSubresource } } {
  if (!info.statusSubresource && info.scale === undefined) return {};
  return { subresources: { ...(info.scale ? { scale: { ...info.scale } } : {}), ...(info.statusSubresource ? { status: {} } : {}) } };
}
