/**
 * Cluster API's MachineSet preflight checks (core/reconcilers/machineset/machineset_preflight.go,
 * feature gate MachineSetPreflightChecks, on by default), pure: before a MachineSet creates
 * Machines (or remediates), its cluster's control plane must be stable (not being created, not
 * upgrading, not behind its topology's version) and the Machines' version must fit it (not newer,
 * at most three minors older, the same minor for kubeadm joins, and, with a topology, the same
 * version). Each failure is one message, Cluster API's own text; an empty list lets it go ahead.
 * The `machineset.cluster.x-k8s.io/skip-preflight-checks` annotation (on the MachineSet, else on
 * its bootstrap config template) names checks to skip, or `All`.
 */

import { recordAt, stringAt } from '../../../../shared/contracts/json.js';
import type { StoredObject } from '../../../../shared/contracts/object.js';
import { type SemVer, parseSemVer } from '../../../../shared/contracts/clusterctl/semver.js';
import type { ContractVersion } from '../../../../shared/contracts/provider-contract.js';
import { controlPlaneContract } from '../../../../shared/contracts/providers/control-plane.js';
import { ANNOTATION_UPGRADE_STEP } from '../../../../shared/contracts/topology/well-known.js';

export const PREFLIGHT_CHECKS = ['ControlPlaneIsStable', 'KubernetesVersionSkew', 'KubeadmVersionSkew', 'ControlPlaneVersionSkew'] as const;
export type PreflightCheck = (typeof PREFLIGHT_CHECKS)[number];

const KUBEADM_CONFIG_TEMPLATE = { group: 'bootstrap.cluster.x-k8s.io', kind: 'KubeadmConfigTemplate' };
/** Kubernetes' skew policy: a kubelet up to three minors older than the API server. */
const MAX_MINOR_SKEW = 3;

export interface PreflightInput {
  cluster: StoredObject;
  /** The cluster's control plane as read, with its contract version; undefined without `spec.controlPlaneRef`. */
  controlPlane?: { object: StoredObject; contractVersion: ContractVersion };
  machineSet: StoredObject;
  /** The skip annotation's value, from the MachineSet or else its bootstrap config template. */
  skip?: string;
}

/** skippedPreflightChecks: the names the annotation lists, trimmed (`All` among them skips every check). */
export function skippedChecks(value: string | undefined): Set<string> {
  return new Set((value ?? '').split(',').map((name) => name.trim()).filter((name) => name !== ''));
}

/** klog.KRef: `namespace/name`. */
function ref(object: StoredObject): string {
  return `${object.metadata.namespace}/${object.metadata.name}`;
}

/** blang/semver's String(): no leading `v`. */
function plain(version: SemVer): string {
  return `${version.major}.${version.minor}.${version.patch}${version.preRelease ? `-${version.preRelease}` : ''}`;
}

function hasTopology(cluster: StoredObject): boolean {
  return recordAt(cluster, 'spec', 'topology') !== undefined;
}

function controlPlaneIsStable(input: PreflightInput & { controlPlane: NonNullable<PreflightInput['controlPlane']> }, cpVersion: string): string[] {
  const { cluster, controlPlane } = input;
  const cp = `${controlPlane.object.kind} ${ref(controlPlane.object)}`;
  const check = '("ControlPlaneIsStable" preflight check failed)';
  if (hasTopology(cluster)) {
    const step = cluster.metadata.annotations?.[ANNOTATION_UPGRADE_STEP];
    const topologyVersion = stringAt(cluster, 'spec', 'topology', 'version');
    if (topologyVersion !== cpVersion && !(step !== undefined && step !== '' && step === cpVersion)) {
      return [`${cp} has a pending version upgrade to ${step || topologyVersion} ${check}`];
    }
  }
  if (controlPlaneContract.isProvisioning(controlPlane.object, controlPlane.contractVersion)) return [`${cp} is provisioning ${check}`];
  const upgrading = controlPlaneContract.isUpgrading(controlPlane.object, controlPlane.contractVersion);
  if (upgrading === undefined) return [`failed to perform "ControlPlaneIsStable" preflight check: failed to parse the versions of ${cp}`];
  return upgrading ? [`${cp} is upgrading ${check}`] : [];
}

function kubernetesVersionSkew(cp: SemVer, ms: SemVer): string[] {
  const versions = `MachineSet version (${plain(ms)}) and ControlPlane version (${plain(cp)}) do not conform to the kubernetes version skew policy`;
  if (ms.minor > cp.minor) return [`${versions} as MachineSet version is higher than ControlPlane version ("KubernetesVersionSkew" preflight check failed)`];
  if (ms.minor < cp.minor - MAX_MINOR_SKEW) {
    return [`${versions} as MachineSet version is more than ${MAX_MINOR_SKEW} minor versions older than the ControlPlane version ("KubernetesVersionSkew" preflight check failed)`];
  }
  return [];
}

function kubeadmVersionSkew(cp: SemVer, ms: SemVer, machineSet: StoredObject): string[] {
  const configRef = recordAt(machineSet, 'spec', 'template', 'spec', 'bootstrap', 'configRef');
  const kubeadm = configRef?.kind === KUBEADM_CONFIG_TEMPLATE.kind && configRef.apiGroup === KUBEADM_CONFIG_TEMPLATE.group;
  if (!kubeadm || cp.minor === ms.minor) return [];
  return [
    `MachineSet version (${plain(ms)}) and ControlPlane version (${plain(cp)}) do not conform to kubeadm version skew policy as kubeadm only supports joining with the same major+minor version as the control plane ("KubeadmVersionSkew" preflight check failed)`,
  ];
}

/** The messages of the checks that fail; none: go ahead. */
export function preflightFailures(input: PreflightInput): string[] {
  const skip = skippedChecks(input.skip);
  const { controlPlane, machineSet } = input;
  if (skip.has('All') || !controlPlane) return [];
  const cpVersion = controlPlaneContract.version(controlPlane.object);
  if (cpVersion === undefined) return [];
  const cpSemver = parseSemVer(cpVersion);
  if (!cpSemver) return [`failed to perform preflight checks: failed to parse version "${cpVersion}" of ControlPlane ${ref(controlPlane.object)}`];
  const runs = (check: PreflightCheck) => !skip.has(check);
  const failures = runs('ControlPlaneIsStable') ? controlPlaneIsStable({ ...input, controlPlane }, cpVersion) : [];
  const msVersion = stringAt(machineSet, 'spec', 'template', 'spec', 'version');
  if (!msVersion) return failures;
  const msSemver = parseSemVer(msVersion);
  if (!msSemver) return [...failures, `failed to perform preflight checks: failed to parse version "${msVersion}" of MachineSet ${ref(machineSet)}`];
  if (runs('KubernetesVersionSkew')) failures.push(...kubernetesVersionSkew(cpSemver, msSemver));
  if (runs('KubeadmVersionSkew')) failures.push(...kubeadmVersionSkew(cpSemver, msSemver, machineSet));
  if (runs('ControlPlaneVersionSkew') && hasTopology(input.cluster) && cpVersion !== msVersion) {
    failures.push(`MachineSet version (${msVersion}) is not yet the same as the ControlPlane version (${cpVersion}), waiting for version to be propagated to the MachineSet ("ControlPlaneVersionSkew" preflight check failed)`);
  }
  return failures;
}
