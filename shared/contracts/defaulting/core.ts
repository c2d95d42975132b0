/**
 * Defaults of the cluster.x-k8s.io kinds, after CAPI's webhooks (C14 `core/webhooks/admission/*.go`).
 * Pure: each returns a new object.
 */

import { LABEL_CLUSTER_NAME } from '../object.js';
import type { Cluster } from '../schemas/core/cluster.js';
import type { Machine } from '../schemas/core/machine.js';
import type { MachineDeployment } from '../schemas/core/machine-deployment.js';
import type { MachineSet, MachineTemplateSpec } from '../schemas/core/machine-set.js';
import type { MachineSpec } from '../schemas/core/machine-spec.js';
import type { LabelSelector } from '../schemas/common/selector.js';
import { LABEL_DEPLOYMENT_NAME, LABEL_SET_NAME, withLabels, withVersionPrefix } from './labels.js';

export const DEFAULT_REPLICAS = 1;
export const DEFAULT_MAX_SURGE = 1;
export const DEFAULT_MAX_UNAVAILABLE = 0;
export const DEFAULT_DELETION_ORDER = 'Random';

export function defaultCluster(cluster: Cluster): Cluster {
  const topology = cluster.spec?.topology;
  if (!cluster.spec || !topology) return cluster;
  return { ...cluster, spec: { ...cluster.spec, topology: { ...topology, version: withVersionPrefix(topology.version) ?? '' } } };
}

function defaultMachineSpec(spec: MachineSpec): MachineSpec {
  const version = withVersionPrefix(spec.version);
  return version === undefined ? spec : { ...spec, version };
}

export function defaultMachine(machine: Machine): Machine {
  return {
    ...machine,
    metadata: { ...machine.metadata, labels: withLabels(machine.metadata.labels, { [LABEL_CLUSTER_NAME]: machine.spec.clusterName }) },
    spec: defaultMachineSpec(machine.spec),
  };
}

interface SetLike {
  name: string;
  clusterName: string;
  selector: LabelSelector;
  template: MachineTemplateSpec;
  /** Label that makes the selector unique when the user gave none. */
  nameLabel: string;
}

/** Selector and template labels: cluster name always, the owner's name when the selector is empty. */
function defaultSelection(input: SetLike): { selector: LabelSelector; template: MachineTemplateSpec } {
  const empty = Object.keys(input.selector.matchLabels ?? {}).length === 0 && (input.selector.matchExpressions ?? []).length === 0;
  const added: Record<string, string> = { ...(empty ? { [input.nameLabel]: input.name } : {}), [LABEL_CLUSTER_NAME]: input.clusterName };
  return {
    selector: { ...input.selector, matchLabels: withLabels(input.selector.matchLabels, added) },
    template: {
      ...input.template,
      metadata: { ...input.template.metadata, labels: withLabels(input.template.metadata?.labels, added) },
      spec: defaultMachineSpec(input.template.spec),
    },
  };
}

export function defaultMachineSet(set: MachineSet): MachineSet {
  const { selector, template } = defaultSelection({ ...set.spec, name: set.metadata.name, nameLabel: LABEL_SET_NAME });
  return {
    ...set,
    metadata: { ...set.metadata, labels: withLabels(set.metadata.labels, { [LABEL_CLUSTER_NAME]: set.spec.clusterName }) },
    spec: {
      ...set.spec,
      replicas: set.spec.replicas ?? DEFAULT_REPLICAS,
      selector,
      template,
      deletion: { ...set.spec.deletion, order: set.spec.deletion?.order ?? DEFAULT_DELETION_ORDER },
    },
  };
}

function defaultStrategy(strategy: NonNullable<MachineDeployment['spec']['rollout']>['strategy']) {
  if (!strategy) {
    return { type: 'RollingUpdate' as const, rollingUpdate: { maxSurge: DEFAULT_MAX_SURGE, maxUnavailable: DEFAULT_MAX_UNAVAILABLE } };
  }
  if (strategy.type !== 'RollingUpdate') return strategy;
  return {
    ...strategy,
    rollingUpdate: {
      maxSurge: strategy.rollingUpdate?.maxSurge ?? DEFAULT_MAX_SURGE,
      maxUnavailable: strategy.rollingUpdate?.maxUnavailable ?? DEFAULT_MAX_UNAVAILABLE,
    },
  };
}

export function defaultMachineDeployment(md: MachineDeployment): MachineDeployment {
  const { selector, template } = defaultSelection({ ...md.spec, name: md.metadata.name, nameLabel: LABEL_DEPLOYMENT_NAME });
  return {
    ...md,
    metadata: { ...md.metadata, labels: withLabels(md.metadata.labels, { [LABEL_CLUSTER_NAME]: md.spec.clusterName }) },
    spec: {
      ...md.spec,
      replicas: md.spec.replicas ?? DEFAULT_REPLICAS,
      selector,
      template,
      rollout: { ...md.spec.rollout, strategy: defaultStrategy(md.spec.rollout?.strategy) },
      deletion: { ...md.spec.deletion, order: md.spec.deletion?.order ?? DEFAULT_DELETION_ORDER },
    },
  };
}
