/** KubeadmControlPlane phases (capi-contract.md §3.4): cluster → certificates → kubeconfig → machines → scale/rollout. */

import { ensureTemplatesOwned, generationUnobserved } from '../../engine/references/cluster-owner.js';
import { listClusterMembers, MACHINE } from '../../engine/references/cluster-members.js';
import { readReference } from '../../engine/references/object-reference.js';
import { booleanAt, stringAt } from '../../../../shared/contracts/json.js';
import {
  type KubeObject,
  LABEL_CLUSTER_NAME,
  type ObjectKey,
  type StoredObject,
  isControlledBy,
  groupOf,
  keyOf,
  ownerReferenceTo,
} from '../../../../shared/contracts/object.js';
import { isAlreadyExists, isNotFound } from '../../../../shared/errors/index.js';
import { apiServerUrl, buildAdminKubeconfig, issueClientCertificate } from '../../../../shared/pki/index.js';
import { encryptionAlgorithmOf, generateCertificates } from '../common/certificate-generation.js';
import {
  type CertificatePair,
  ensureClusterCertificates,
  lookupClusterCertificates,
  missingPurposes,
  usesExternalEtcd,
} from '../common/cluster-certificates.js';
import { clusterReadiness } from '../common/cluster-readiness.js';
import { encodeSecretValue } from '../common/secret-data.js';
import { CLUSTER_SECRET_TYPE, CORE_GROUP, kubeconfigSecretName } from '../common/well-known.js';
import type { PhaseResult } from '../../engine/skeleton/types.js';
import { forwardEtcdLeadership } from './etcd-leadership.js';
import { addonSkips, remediationInProgress } from './annotations.js';
import { controlPlaneFailureDomains } from './failure-domains.js';
import { controlPlaneMachineInPlace } from './in-place.js';
import { orphanedParts, resumableName } from './orphaned-parts.js';
import { buildInfraMachine, buildKubeadmConfig, buildMachine, controlPlaneLabels, newMachineName } from './machine-factory.js';
import { metadataChanged, syncPartsMetadata } from '../../core/machine-parts-metadata.js';
import { configSpecHash, machineFacts, machineHasNode } from './machine-facts.js';
import { planControlPlane } from './plan.js';
import { finishRemediation, replacementAnnotations } from './remediation.js';
import type { KcpScope } from './scope.js';
import { CONDITIONS, kcpConditions, kcpWaitingConditions } from './status.js';
import { conditionsOf, findCondition } from '../../../../shared/contracts/conditions.js';

const STOP: PhaseResult = { stop: true };
/** KCP preflight retry (upstream 15 s). */
const PREFLIGHT_REQUEUE_SECONDS = 15;
const MISSING_REFERENCE_REQUEUE_SECONDS = 30;

function waiting(scope: KcpScope, reason: string, message: string, requeueAfterSeconds?: number): PhaseResult {
  scope.conditions.push(...kcpWaitingConditions(reason, message));
  return requeueAfterSeconds === undefined ? STOP : { stop: true, requeueAfterSeconds };
}

/** The owning Cluster: ownerReference of kind Cluster (set by the Cluster controller), else the cluster-name label. */
export function clusterNameOf(kcp: KubeObject): string | undefined {
  const owner = (kcp.metadata.ownerReferences ?? []).find((ref) => ref.kind === 'Cluster' && groupOf(ref.apiVersion) === CORE_GROUP);
  return owner?.name ?? kcp.metadata.labels?.[LABEL_CLUSTER_NAME];
}

export async function resolveCluster(scope: KcpScope): Promise<PhaseResult | undefined> {
  const clusterName = clusterNameOf(scope.object);
  if (!clusterName) return waiting(scope, 'WaitingForCluster', 'waiting for a Cluster to own this control plane');
  scope.clusterName = clusterName;
  const cluster = await scope.ctx.store.get({ group: CORE_GROUP, kind: 'Cluster', namespace: scope.object.metadata.namespace, name: clusterName });
  if (!cluster) return waiting(scope, 'WaitingForCluster', `cluster ${clusterName} not found`, MISSING_REFERENCE_REQUEUE_SECONDS);
  scope.cluster = cluster;
  // Cluster API's reconcileExternalReference: the machine template is owned by the Cluster (clusterctl move follows it).
  if (generationUnobserved(scope.object)) await ensureTemplatesOwned(scope.ctx.store, scope.object.metadata.namespace, [scope.spec.infrastructureRef], cluster);
  if (booleanAt(cluster, 'status', 'initialization', 'controlPlaneInitialized') === true) scope.initialized = true;
  const readiness = clusterReadiness(cluster);
  if (!readiness.ready) return waiting(scope, readiness.reason, readiness.message);
  scope.endpoint = readiness.endpoint;
  return undefined;
}

/** Generated once until the control plane is initialized; afterwards only looked up (CAs are never regenerated). */
export async function reconcileCertificates(scope: KcpScope): Promise<PhaseResult | undefined> {
  const { clusterName } = scope;
  if (!clusterName) return STOP;
  const ref = { namespace: scope.object.metadata.namespace, clusterName };
  const externalEtcd = usesExternalEtcd(scope.spec.kubeadmConfigSpec);
  const certificates = scope.initialized
    ? await lookupClusterCertificates(scope.ctx.store, ref, externalEtcd)
    : await ensureClusterCertificates(scope.ctx.store, {
        ...ref,
        owner: ownerReferenceTo(scope.object),
        generate: () => generateCertificates(clusterName, scope.spec.kubeadmConfigSpec, scope.ctx.clock.now()),
        externalEtcd,
      });
  scope.missingCertificates = missingPurposes(certificates, externalEtcd).map((p) => `${clusterName}-${p}`);
  scope.ca = certificates.ca;
  return undefined;
}

/** `<cluster>-kubeconfig`: an admin kubeconfig signed by the cluster CA, created once. */
export async function reconcileKubeconfig(scope: KcpScope): Promise<PhaseResult | undefined> {
  const { clusterName, endpoint, ca } = scope;
  if (!clusterName || !endpoint) return STOP;
  const namespace = scope.object.metadata.namespace;
  const name = kubeconfigSecretName(clusterName);
  if (await scope.ctx.store.get({ group: '', kind: 'Secret', namespace, name })) return undefined;
  if (!ca) return { requeueAfterSeconds: PREFLIGHT_REQUEUE_SECONDS };
  const value = await adminKubeconfig(scope, clusterName, endpoint, ca);
  try {
    await scope.ctx.store.create({
      apiVersion: 'v1',
      kind: 'Secret',
      type: CLUSTER_SECRET_TYPE,
      metadata: { name, namespace, labels: { [LABEL_CLUSTER_NAME]: clusterName }, ownerReferences: [ownerReferenceTo(scope.object)] },
      data: { value: encodeSecretValue(value) },
    });
  } catch (error) {
    if (!isAlreadyExists(error)) throw error;
  }
  return undefined;
}

async function adminKubeconfig(
  scope: KcpScope,
  clusterName: string,
  endpoint: NonNullable<KcpScope['endpoint']>,
  ca: CertificatePair,
): Promise<string> {
  const algorithm = encryptionAlgorithmOf(scope.spec.kubeadmConfigSpec);
  const client = await issueClientCertificate({
    ca: { certPem: ca.cert, keyPem: ca.key },
    now: scope.ctx.clock.now(),
    ...(algorithm ? { algorithm } : {}),
  });
  return buildAdminKubeconfig({
    clusterName,
    server: apiServerUrl(endpoint.host, endpoint.port),
    caPem: ca.cert,
    clientCertPem: client.certPem,
    clientKeyPem: client.keyPem,
  });
}

function infraMachineOf(machine: StoredObject, objects: readonly StoredObject[]): StoredObject | undefined {
  const kind = stringAt(machine, 'spec', 'infrastructureRef', 'kind');
  const name = stringAt(machine, 'spec', 'infrastructureRef', 'name');
  return objects.find((o) => o.kind === kind && o.metadata.name === name);
}

/** The cluster's Machines, then the InfraMachines of the kinds they name: this KCP's Machines and their InfraMachines are picked from them. */
export async function collectMachines(scope: KcpScope): Promise<PhaseResult | undefined> {
  const { clusterName } = scope;
  if (!clusterName) return STOP;
  const { namespace } = scope.object.metadata;
  const machines = await scope.ctx.store.listByCluster(namespace, clusterName, MACHINE);
  const infraKinds = machines.flatMap((m) => {
    const ref = readReference(m, 'spec', 'infrastructureRef');
    return ref ? [{ group: ref.apiGroup, kind: ref.kind }] : [];
  });
  scope.clusterObjects = [...machines, ...(await listClusterMembers(scope.ctx.store, namespace, clusterName, infraKinds))];
  scope.machines = scope.clusterObjects.filter((o) => o.kind === 'Machine' && isControlledBy(o, scope.object.metadata.uid));
  const specHash = configSpecHash(scope.spec.kubeadmConfigSpec);
  const now = scope.ctx.clock.now();
  scope.facts = scope.machines.map((m) => {
    const infraMachine = infraMachineOf(m, scope.clusterObjects);
    return machineFacts(m, { spec: scope.spec, specHash, now, ...(infraMachine ? { infraMachine } : {}) });
  });
  if (scope.machines.some(machineHasNode)) scope.initialized = true;
  return undefined;
}

/**
 * The KubeadmControlPlane's in-place fields onto its Machines (in-place.ts), and its template's
 * labels and annotations onto their InfraMachines and KubeadmConfigs; the scope keeps the written
 * Machines.
 */
export async function syncMachines(scope: KcpScope): Promise<PhaseResult | undefined> {
  const { clusterName } = scope;
  if (!clusterName) return STOP;
  const parts = { labels: { ...scope.spec.machineLabels, ...controlPlaneLabels(clusterName, scope.object.metadata.name) }, annotations: scope.spec.machineAnnotations };
  for (const machine of scope.machines) {
    const changed = controlPlaneMachineInPlace(machine, scope.spec, clusterName, scope.object.metadata.name);
    if (!changed) continue;
    // Its InfraMachine (listed already) and KubeadmConfig first (machine-parts-metadata.ts says why).
    if (metadataChanged(machine, changed)) await syncPartsMetadata(scope.ctx.store, machine, parts, scope.clusterObjects);
    const written = await scope.ctx.store.update(changed);
    scope.machines = scope.machines.map((m) => (m === machine ? written : m));
    scope.clusterObjects = scope.clusterObjects.map((o) => (o === machine ? written : o));
  }
  return undefined;
}

/** Plans one step (scale up, scale down, wait) and takes it. */
export async function reconcileReplicas(scope: KcpScope): Promise<PhaseResult | undefined> {
  const { cluster } = scope;
  if (!cluster) return STOP;
  const remediation = remediationInProgress(scope.object);
  // The remediated Machine gone, the scale-up that replaces it may go ahead.
  const remediating = remediation && scope.machines.some((m) => m.metadata.name === remediation.machine) ? remediation : undefined;
  const plan = planControlPlane({
    replicas: scope.spec.replicas,
    maxSurge: scope.spec.maxSurge,
    initialized: scope.initialized,
    machines: scope.facts,
    failureDomains: controlPlaneFailureDomains(cluster),
    ...(remediating ? { remediatingMachine: remediating.machine } : {}),
  });
  scope.plan = plan;
  switch (plan.type) {
    case 'none':
      return undefined;
    case 'wait':
      return plan.reason === 'WaitingForMachinesReady' || plan.reason === 'WaitingForMachineDeletion'
        ? { requeueAfterSeconds: PREFLIGHT_REQUEUE_SECONDS }
        : undefined;
    case 'scaleUp':
      if (scope.missingCertificates.length > 0) return { requeueAfterSeconds: PREFLIGHT_REQUEUE_SECONDS };
      return createMachine(scope, plan.init, plan.failureDomain);
    case 'scaleDown': {
      const victim = scope.machines.find((m) => m.metadata.name === plan.machine);
      if (victim) await forwardEtcdLeadership(scope, victim);
      await deleteIfPresent(scope, { group: CORE_GROUP, kind: 'Machine', namespace: scope.object.metadata.namespace, name: plan.machine });
      return undefined;
    }
  }
}

async function deleteIfPresent(scope: KcpScope, key: ObjectKey): Promise<void> {
  try {
    await scope.ctx.store.delete(key);
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
}

async function createMachine(scope: KcpScope, init: boolean, failureDomain?: string): Promise<PhaseResult | undefined> {
  const { clusterName } = scope;
  const ref = scope.spec.infrastructureRef;
  if (!clusterName || !ref) return STOP;
  const namespace = scope.object.metadata.namespace;
  const template = await scope.ctx.store.get({ group: ref.apiGroup, kind: ref.kind, namespace, name: ref.name });
  if (!template) {
    scope.creationProblem = `infrastructure template ${ref.kind} ${ref.name} not found`;
    return { requeueAfterSeconds: MISSING_REFERENCE_REQUEUE_SECONDS };
  }
  if (scope.cluster) await ensureTemplatesOwned(scope.ctx.store, namespace, [ref], scope.cluster);
  const base = {
    kcp: scope.object,
    spec: scope.spec,
    clusterName,
    init,
    extraAnnotations: replacementAnnotations(scope),
    specHash: configSpecHash(scope.spec.kubeadmConfigSpec),
    infraTemplate: template,
    ...(failureDomain ? { failureDomain } : {}),
  };
  const parts = (name: string) => [buildInfraMachine({ ...base, name }), buildKubeadmConfig({ ...base, name })];
  // An earlier creation interrupted between its writes resumes under its name; stale parts go.
  const owned = await scope.ctx.store.listByOwner(scope.object.metadata.uid);
  const orphans = orphanedParts(scope.object.metadata.uid, owned);
  const resumed = resumableName(orphans, parts);
  for (const stale of orphans.filter((o) => o.metadata.name !== resumed)) await deleteIfPresent(scope, keyOf(stale));
  const input = { ...base, name: resumed ?? newMachineName(scope.object.metadata.name) };
  const infraMachine = buildInfraMachine(input);
  // No clean-up on failure: whatever was written is picked up by the next run, as above.
  for (const obj of [infraMachine, buildKubeadmConfig(input), buildMachine(input, infraMachine)]) {
    try {
      await scope.ctx.store.create(obj);
    } catch (error) {
      if (!(resumed && isAlreadyExists(error))) throw error;
    }
  }
  if (Object.keys(input.extraAnnotations).length > 0) await finishRemediation(scope);
  return undefined;
}

/** Conditions from everything the phases found (last phase). */
export function reportConditions(scope: KcpScope): PhaseResult | undefined {
  const remediation = remediationInProgress(scope.object);
  const initialized = findCondition(conditionsOf(scope.object.status), CONDITIONS.initialized);
  const initializedSince = initialized?.status === 'True' ? initialized.lastTransitionTime : undefined;
  scope.conditions.push(
    ...kcpConditions({
      replicas: scope.spec.replicas,
      initialized: scope.initialized,
      machines: scope.facts,
      missingCertificates: scope.missingCertificates,
      skips: addonSkips(scope.object),
      ...(scope.plan ? { plan: scope.plan } : {}),
      ...(remediation ? { remediation } : {}),
      ...(scope.remediationBlocked ? { remediationBlocked: scope.remediationBlocked } : {}),
      ...(scope.creationProblem ? { creationProblem: scope.creationProblem } : {}),
      ...(scope.health ? { health: scope.health } : {}),
      ...(initializedSince ? { initializedSince } : {}),
      now: scope.ctx.clock.now(),
    }),
  );
  return undefined;
}
