/**
 * Sequenced upgrades (Cluster API's desired_state.go computeControlPlaneVersion and
 * computeMachineDeploymentVersion, for a one-step plan): a new `topology.version` goes to the
 * control plane first, once nothing is still rolling; MachineDeployments take it only once every
 * control-plane Machine runs it, at most `upgrade-concurrency` at a time, in topology order,
 * honouring `defer-upgrade` and `hold-upgrade-sequence`. New MachineDeployments wait while the
 * control plane upgrades. Pure: the versions and what is pending, from what exists now.
 */

import { isRecord, stringAt } from '../../../../shared/contracts/json.js';
import { LABEL_CLUSTER_NAME, type StoredObject } from '../../../../shared/contracts/object.js';
import {
  ANNOTATION_DEFER_UPGRADE,
  ANNOTATION_HOLD_UPGRADE_SEQUENCE,
  ANNOTATION_UPGRADE_CONCURRENCY,
  LABEL_CONTROL_PLANE,
} from '../../../../shared/contracts/topology/well-known.js';
import { LABEL_DEPLOYMENT_NAME } from '../../../../shared/contracts/defaulting/labels.js';

export interface TopologyMachineDeploymentInput {
  topologyName: string;
  /** Annotations from the topology's metadata for this MachineDeployment. */
  annotations: Record<string, string>;
  /** The existing MachineDeployment, if any. */
  current?: StoredObject;
}

export interface UpgradeInput {
  topologyVersion: string;
  clusterAnnotations: Record<string, string>;
  controlPlane?: StoredObject;
  machines: readonly StoredObject[];
  machineDeployments: readonly TopologyMachineDeploymentInput[];
  /** BeforeClusterUpgrade answered "wait" (lifecycle-hooks.ts). */
  beforeUpgradeBlocked: boolean;
  /** AfterControlPlaneUpgrade is pending and answered "wait". */
  afterControlPlaneUpgradeBlocked: boolean;
}

export interface UpgradeDecision {
  controlPlaneVersion: string;
  /** The control plane takes a new version in this reconcile (BeforeClusterUpgrade passed). */
  controlPlaneStartingUpgrade: boolean;
  /** The control plane's machines are still moving to its version (or being created). */
  controlPlaneUpgrading: boolean;
  /** The control plane is not at topology.version and not moving this reconcile. */
  controlPlanePendingUpgrade: boolean;
  /** The control plane runs topology.version on every machine. */
  controlPlaneStable: boolean;
  machineDeploymentVersions: Map<string, string>;
  pendingCreate: string[];
  pendingUpgrade: string[];
  deferred: string[];
  upgrading: string[];
}

const isControlPlaneMachine = (m: StoredObject) => m.metadata.labels?.[LABEL_CONTROL_PLANE] !== undefined;

/**
 * The control plane's machines are not all on its spec.version: its status reports an older (or
 * no) version, or a control-plane Machine runs another one. Scaling is not moving.
 */
export function controlPlaneMoving(controlPlane: StoredObject, machines: readonly StoredObject[]): boolean {
  const version = stringAt(controlPlane.spec, 'version');
  if (stringAt(controlPlane.status, 'version') !== version) return true;
  return machines.filter(isControlPlaneMachine).some((m) => stringAt(m.spec, 'version') !== version);
}

/** A MachineDeployment's machines are not all on its template version. */
export function machineDeploymentMoving(md: StoredObject, machines: readonly StoredObject[]): boolean {
  const version = stringAt(md.spec, 'template', 'spec', 'version');
  const clusterName = md.metadata.labels?.[LABEL_CLUSTER_NAME];
  return machines.some(
    (m) =>
      m.metadata.labels?.[LABEL_DEPLOYMENT_NAME] === md.metadata.name &&
      m.metadata.labels?.[LABEL_CLUSTER_NAME] === clusterName &&
      stringAt(m.spec, 'version') !== version,
  );
}

export function upgradeConcurrency(annotations: Record<string, string>): number {
  const value = Number(annotations[ANNOTATION_UPGRADE_CONCURRENCY]);
  return Number.isInteger(value) && value >= 1 ? value : 1;
}

function provisioning(controlPlane: StoredObject): boolean {
  return !isRecord(controlPlane.status) || stringAt(controlPlane.status, 'version') === undefined;
}

export function decideUpgrade(input: UpgradeInput): UpgradeDecision {
  const { topologyVersion, controlPlane, machines } = input;
  const mdMoving = input.machineDeployments.filter((md) => md.current && machineDeploymentMoving(md.current, machines)).map((md) => md.topologyName);
  let controlPlaneVersion = topologyVersion;
  let starting = false;
  let pendingCpUpgrade = false;
  const cpCurrentVersion = controlPlane ? stringAt(controlPlane.spec, 'version') : undefined;
  const cpMoving = controlPlane ? controlPlaneMoving(controlPlane, machines) : false;
  if (controlPlane && cpCurrentVersion !== undefined && cpCurrentVersion !== topologyVersion) {
    if (cpMoving || mdMoving.length > 0 || input.beforeUpgradeBlocked) {
      controlPlaneVersion = cpCurrentVersion;
      pendingCpUpgrade = true;
    } else {
      starting = true;
    }
  }
  const cpUpgrading = controlPlane !== undefined && (starting || (cpMoving && !provisioning(controlPlane)));
  const stable = controlPlane !== undefined && controlPlaneVersion === topologyVersion && !starting && !cpMoving;

  const versions = new Map<string, string>();
  const decision = { pendingCreate: [] as string[], pendingUpgrade: [] as string[], deferred: [] as string[], upgrading: [] as string[] };
  const concurrency = upgradeConcurrency(input.clusterAnnotations);
  let inFlight = mdMoving.length;
  let held = false;
  for (const md of input.machineDeployments) {
    const holdsSequence = md.annotations[ANNOTATION_HOLD_UPGRADE_SEQUENCE] !== undefined;
    if (!md.current) {
      if (controlPlane && (cpUpgrading || pendingCpUpgrade || input.afterControlPlaneUpgradeBlocked)) decision.pendingCreate.push(md.topologyName);
      versions.set(md.topologyName, topologyVersion);
      held ||= holdsSequence;
      continue;
    }
    const currentVersion = stringAt(md.current.spec, 'template', 'spec', 'version') ?? topologyVersion;
    const moving = mdMoving.includes(md.topologyName);
    if (currentVersion === topologyVersion) {
      versions.set(md.topologyName, topologyVersion);
      if (moving) decision.upgrading.push(md.topologyName);
    } else if (held || holdsSequence || md.annotations[ANNOTATION_DEFER_UPGRADE] !== undefined) {
      versions.set(md.topologyName, currentVersion);
      decision.deferred.push(md.topologyName);
    } else if (!stable || input.afterControlPlaneUpgradeBlocked || (inFlight >= concurrency && !moving)) {
      versions.set(md.topologyName, currentVersion);
      decision.pendingUpgrade.push(md.topologyName);
    } else {
      versions.set(md.topologyName, topologyVersion);
      decision.upgrading.push(md.topologyName);
      if (!moving) inFlight++;
    }
    held ||= holdsSequence;
  }
  return {
    controlPlaneVersion,
    controlPlaneStartingUpgrade: starting,
    controlPlaneUpgrading: cpUpgrading,
    controlPlanePendingUpgrade: pendingCpUpgrade,
    controlPlaneStable: stable,
    machineDeploymentVersions: versions,
    ...decision,
  };
}
