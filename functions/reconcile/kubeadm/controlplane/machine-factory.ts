/** The three objects KCP creates per control-plane machine, built purely (capi-contract.md §3.4). */

import { randomBytes } from 'node:crypto';
import { clone, isRecord, recordAt } from '../../../../shared/contracts/json.js';
import { parseSemVer } from '../../../../shared/contracts/clusterctl/semver.js';
import {
  type KubeObject,
  LABEL_CLUSTER_NAME,
  type StoredObject,
  groupKindString,
  groupOf,
  ownerReferenceTo,
} from '../../../../shared/contracts/object.js';
import { TerminalError } from '../../../../shared/errors/index.js';
import {
  ANNOTATION_CLONED_FROM_GROUPKIND,
  ANNOTATION_CLONED_FROM_NAME,
  BOOTSTRAP_API_VERSION,
  BOOTSTRAP_GROUP,
  CORE_API_VERSION,
  LABEL_CONTROL_PLANE,
  LABEL_CONTROL_PLANE_NAME,
} from '../common/well-known.js';
import type { KcpSpec } from './kcp-spec.js';
import { ANNOTATION_CONFIG_SPEC_HASH } from './machine-facts.js';
import { KCP_PRE_TERMINATE_HOOK } from './pre-terminate-hook.js';

export interface NewMachineInput {
  kcp: StoredObject;
  spec: KcpSpec;
  clusterName: string;
  /** Shared by the Machine, its KubeadmConfig and its InfraMachine. */
  name: string;
  /** The first machine: init + cluster configuration; the others join. */
  init: boolean;
  failureDomain?: string;
  specHash: string;
  /** The *Template that spec.machineTemplate.spec.infrastructureRef names. */
  infraTemplate: StoredObject;
  /** Added to the Machine's annotations (a replacement's `remediation-for`). */
  extraAnnotations?: Record<string, string>;
}

const SUFFIX_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/** `<kcp>-<5 random chars>`, like names.SimpleNameGenerator. */
export function newMachineName(kcpName: string): string {
  const suffix = [...randomBytes(5)].map((b) => SUFFIX_ALPHABET[b % SUFFIX_ALPHABET.length]).join('');
  return `${kcpName.slice(0, 57)}-${suffix}`;
}

export function controlPlaneLabels(clusterName: string, kcpName: string): Record<string, string> {
  return { [LABEL_CLUSTER_NAME]: clusterName, [LABEL_CONTROL_PLANE]: '', [LABEL_CONTROL_PLANE_NAME]: kcpName };
}

/** kubeadm's ControlPlaneKubeletLocalMode gate: from Kubernetes v1.31 until it went GA in v1.36 (Cluster API's DefaultFeatureGates). */
const KUBELET_LOCAL_MODE = { gate: 'ControlPlaneKubeletLocalMode', fromMinor: 31, gaMinor: 36 } as const;

/**
 * Cluster API's DefaultFeatureGates: the control plane's kubelets talk to their own API server
 * (so a kubelet is never newer than the API server it reaches during an upgrade), unless the
 * spec sets the gate itself. Pre-releases count as their release.
 */
export function withDefaultFeatureGates(clusterConfiguration: Record<string, unknown>, kubernetesVersion: string): Record<string, unknown> {
  const version = parseSemVer(kubernetesVersion);
  const gated = version?.major === 1 && version.minor >= KUBELET_LOCAL_MODE.fromMinor && version.minor < KUBELET_LOCAL_MODE.gaMinor;
  if (!gated) return clusterConfiguration;
  const gates = isRecord(clusterConfiguration.featureGates) ? clusterConfiguration.featureGates : {};
  if (KUBELET_LOCAL_MODE.gate in gates) return clusterConfiguration;
  return { ...clusterConfiguration, featureGates: { ...gates, [KUBELET_LOCAL_MODE.gate]: true } };
}

/**
 * kubeadmConfigSpec for one machine (Cluster API's ComputeDesiredKubeadmConfig): init keeps init
 * and cluster configuration (with the default feature gates, which kubeadm init stores in the
 * cluster for every later join); joins get joinConfiguration.controlPlane and keep the cluster
 * configuration too, which kubeadm join does not read but the bootstrap needs to tell an external
 * etcd (its certificates go on the joining Node).
 */
export function kubeadmConfigSpecFor(kubeadmConfigSpec: Record<string, unknown>, init: boolean, kubernetesVersion: string): Record<string, unknown> {
  const { initConfiguration, clusterConfiguration, joinConfiguration, ...rest } = clone(kubeadmConfigSpec);
  const cluster = withDefaultFeatureGates(isRecord(clusterConfiguration) ? clusterConfiguration : {}, kubernetesVersion);
  if (init) return { ...rest, clusterConfiguration: cluster, initConfiguration: isRecord(initConfiguration) ? initConfiguration : {} };
  const join = isRecord(joinConfiguration) ? joinConfiguration : {};
  return { ...rest, clusterConfiguration: cluster, joinConfiguration: { ...join, controlPlane: isRecord(join.controlPlane) ? join.controlPlane : {} } };
}

export function buildKubeadmConfig(input: NewMachineInput): KubeObject {
  return {
    apiVersion: BOOTSTRAP_API_VERSION,
    kind: 'KubeadmConfig',
    metadata: {
      name: input.name,
      namespace: input.kcp.metadata.namespace,
      labels: { ...input.spec.machineLabels, ...controlPlaneLabels(input.clusterName, input.kcp.metadata.name) },
      annotations: { ...input.spec.machineAnnotations },
      ownerReferences: [ownerReferenceTo(input.kcp)],
    },
    spec: kubeadmConfigSpecFor(input.spec.kubeadmConfigSpec, input.init, input.spec.version),
  };
}

/** Clones `spec.template` of the *Template into a new InfraMachine, recording where it came from. */
export function buildInfraMachine(input: NewMachineInput): KubeObject {
  const template = input.infraTemplate;
  const templateSpec = recordAt(template, 'spec', 'template', 'spec');
  if (!templateSpec) {
    throw new TerminalError('InvalidTemplate', `${template.kind} ${template.metadata.name} has no spec.template.spec`);
  }
  const templateMeta = recordAt(template, 'spec', 'template', 'metadata') ?? {};
  const stringsOf = (value: unknown) =>
    isRecord(value) ? Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string')) : {};
  const kind = template.kind.endsWith('Template') ? template.kind.slice(0, -'Template'.length) : template.kind;
  return {
    apiVersion: template.apiVersion,
    kind,
    metadata: {
      name: input.name,
      namespace: input.kcp.metadata.namespace,
      labels: {
        ...stringsOf(templateMeta.labels),
        ...input.spec.machineLabels,
        ...controlPlaneLabels(input.clusterName, input.kcp.metadata.name),
      },
      annotations: {
        ...stringsOf(templateMeta.annotations),
        ...input.spec.machineAnnotations,
        [ANNOTATION_CLONED_FROM_NAME]: template.metadata.name,
        [ANNOTATION_CLONED_FROM_GROUPKIND]: groupKindString({ group: groupOf(template.apiVersion), kind: template.kind }),
      },
      ownerReferences: [ownerReferenceTo(input.kcp)],
    },
    spec: clone(templateSpec),
  };
}

export function buildMachine(input: NewMachineInput, infraMachine: KubeObject): KubeObject {
  return {
    apiVersion: CORE_API_VERSION,
    kind: 'Machine',
    metadata: {
      name: input.name,
      namespace: input.kcp.metadata.namespace,
      labels: { ...input.spec.machineLabels, ...controlPlaneLabels(input.clusterName, input.kcp.metadata.name) },
      annotations: { ...input.spec.machineAnnotations, ...input.extraAnnotations, [ANNOTATION_CONFIG_SPEC_HASH]: input.specHash, [KCP_PRE_TERMINATE_HOOK]: '' },
      ownerReferences: [ownerReferenceTo(input.kcp)],
    },
    spec: {
      ...clone(input.spec.machineSpecExtras),
      clusterName: input.clusterName,
      version: input.spec.version,
      bootstrap: { configRef: { apiGroup: BOOTSTRAP_GROUP, kind: 'KubeadmConfig', name: input.name } },
      infrastructureRef: { apiGroup: groupOf(infraMachine.apiVersion), kind: infraMachine.kind, name: input.name },
      ...(input.failureDomain ? { failureDomain: input.failureDomain } : {}),
    },
  };
}
