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
  /** AfterControlPlaneUpgrade or BeforeWorkersUpgrade is still pending (it answered "wait", or was not asked yet). */
  workerHooksBlocked: boolean;
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

type ControlPlaneDecision = Pick<
  UpgradeDecision,
  'controlPlaneVersion' | 'controlPlaneStartingUpgrade' | 'controlPlaneUpgrading' | 'controlPlanePendingUpgrade' | 'controlPlaneStable'
>;

/** computeControlPlaneVersion: take topology.version only when nothing is moving and no hook blocks. */
function decideControlPlane(input: UpgradeInput, anyWorkerMoving: boolean): ControlPlaneDecision {
  const { topologyVersion, controlPlane } = input;
  if (!controlPlane) {
    return { controlPlaneVersion: topologyVersion, controlPlaneStartingUpgrade: false, controlPlaneUpgrading: false, controlPlanePendingUpgrade: false, controlPlaneStable: false };
  }
  const current = stringAt(controlPlane.spec, 'version');
  const moving = controlPlaneMoving(controlPlane, input.machines);
  const behind = current !== undefined && current !== topologyVersion;
  const held = behind && (moving || anyWorkerMoving || input.beforeUpgradeBlocked);
  const starting = behind && !held;
  const version = held && current !== undefined ? current : topologyVersion;
  return {
    controlPlaneVersion: version,
    controlPlaneStartingUpgrade: starting,
    controlPlaneUpgrading: starting || (moving && !provisioning(controlPlane)),
    controlPlanePendingUpgrade: held,
    controlPlaneStable: version === topologyVersion && !starting && !moving,
  };
}

type Verdict = 'create' | 'pendingCreate' | 'current' | 'upgrading' | 'deferred' | 'pendingUpgrade';

interface WorkerContext {
  input: UpgradeInput;
  cp: ControlPlaneDecision;
  moving: ReadonlySet<string>;
  concurrency: number;
}

/** computeMachineDeploymentVersion for one MachineDeployment, given those before it. */
function decideWorker(md: TopologyMachineDeploymentInput, w: WorkerContext, held: boolean, inFlight: number): Verdict {
  if (!md.current) {
    const waiting = w.input.controlPlane !== undefined && (w.cp.controlPlaneUpgrading || w.cp.controlPlanePendingUpgrade || w.input.workerHooksBlocked);
    return waiting ? 'pendingCreate' : 'create';
  }
  const moving = w.moving.has(md.topologyName);
  if ((stringAt(md.current.spec, 'template', 'spec', 'version') ?? w.input.topologyVersion) === w.input.topologyVersion) return moving ? 'upgrading' : 'current';
  const deferred = held || md.annotations[ANNOTATION_HOLD_UPGRADE_SEQUENCE] !== undefined || md.annotations[ANNOTATION_DEFER_UPGRADE] !== undefined;
  if (deferred) return 'deferred';
  if (!w.cp.controlPlaneStable || w.input.workerHooksBlocked || (inFlight >= w.concurrency && !moving)) return 'pendingUpgrade';
  return 'upgrading';
}

export function decideUpgrade(input: UpgradeInput): UpgradeDecision {
  const { topologyVersion, machines } = input;
  const moving = new Set(input.machineDeployments.filter((md) => md.current && machineDeploymentMoving(md.current, machines)).map((md) => md.topologyName));
  const cp = decideControlPlane(input, moving.size > 0);
  const context: WorkerContext = { input, cp, moving, concurrency: upgradeConcurrency(input.clusterAnnotations) };
  const versions = new Map<string, string>();
  const lists = { pendingCreate: [] as string[], pendingUpgrade: [] as string[], deferred: [] as string[], upgrading: [] as string[] };
  let inFlight = moving.size;
  let held = false;
  for (const md of input.machineDeployments) {
    const verdict = decideWorker(md, context, held, inFlight);
    const currentVersion = stringAt(md.current?.spec, 'template', 'spec', 'version') ?? topologyVersion;
    const keeps = verdict === 'deferred' || verdict === 'pendingUpgrade';
    versions.set(md.topologyName, keeps ? currentVersion : topologyVersion);
    if (verdict !== 'create' && verdict !== 'current') lists[verdict].push(md.topologyName);
    if (verdict === 'upgrading' && !moving.has(md.topologyName)) inFlight++;
    held ||= md.annotations[ANNOTATION_HOLD_UPGRADE_SEQUENCE] !== undefined;
  }
  return { ...cp, machineDeploymentVersions: versions, ...lists };
}
