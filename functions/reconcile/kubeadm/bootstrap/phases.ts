/** KubeadmConfig phases (capi-contract.md §3.3, kubeadm-bootstrap.md §1–5). */

import { numberAt, recordAt, stringAt, valueAt } from '../../../../shared/contracts/json.js';
import { LABEL_CLUSTER_NAME, type ObjectKey, type StoredObject, controllerOf, ownerReferenceTo } from '../../../../shared/contracts/object.js';
import { TerminalError, TransientError, isAlreadyExists } from '../../../../shared/errors/index.js';
import {
  ensureClusterCertificates,
  isComplete,
  lookupClusterCertificates,
  missingPurposes,
  usesExternalEtcd,
} from '../common/cluster-certificates.js';
import { CLUSTER_SECRET_TYPE, CORE_GROUP, WAIT_FOR_INIT_SECONDS } from '../common/well-known.js';
import type { PhaseResult } from '../../engine/skeleton/types.js';
import { ensureBootstrapToken } from './bootstrap-token.js';
import { acquireInitLock, releaseInitLock } from './init-lock.js';
import { generateBootstrapToken } from '../../../../shared/pki/index.js';
import { generateCertificates } from '../common/certificate-generation.js';
import { type RenderRequest, renderBootstrapData } from './render.js';
import { clusterReadiness } from '../common/cluster-readiness.js';
import { resolveSpecSources } from './resolve-sources.js';
import { controlPlaneInitialized, decideRole, isControlPlaneMachine, isJoinOnly } from './role.js';
import type { KubeadmConfigScope } from './scope.js';
import { dataSecretConditions, userDataSizeCondition } from './status.js';

const STOP: PhaseResult = { stop: true };
/** Certificates a KubeadmControlPlane has yet to create: look again soon. */
const WAIT_FOR_CERTIFICATES_SECONDS = 10;

function waiting(scope: KubeadmConfigScope, reason: string, message: string, requeueAfterSeconds?: number): PhaseResult {
  scope.conditions.push(...dataSecretConditions({ available: false, reason, message }));
  return requeueAfterSeconds === undefined ? STOP : { stop: true, requeueAfterSeconds };
}

function secretKey(namespace: string, name: string): ObjectKey {
  return { group: '', kind: 'Secret', namespace, name };
}

/**
 * Idempotence: once the data Secret exists it is never rendered again. A config whose status
 * names its data Secret reads it first and stops there (Cluster API trusts that status and reads
 * nothing). Before that the Secret exists only if a render's status write was lost, and that
 * render's create finds it again (`createDataSecret`), so a config still waiting on its owner,
 * its Cluster or the control plane reads no Secret.
 */
export async function findDataSecret(scope: KubeadmConfigScope): Promise<PhaseResult | undefined> {
  if (!statusNamesDataSecret(scope.object)) return undefined;
  const config = scope.object;
  const secret = await scope.ctx.store.get(secretKey(config.metadata.namespace, config.metadata.name));
  if (!secret) return undefined;
  return adoptDataSecret(scope, secret);
}

function statusNamesDataSecret(config: StoredObject): boolean {
  return stringAt(config, 'status', 'dataSecretName') !== undefined || valueAt(config, 'status', 'initialization', 'dataSecretCreated') === true;
}

function isOwnDataSecret(config: StoredObject, secret: StoredObject): boolean {
  return controllerOf(secret)?.uid === config.metadata.uid;
}

/** The config's own Secret is its data; one controlled by anything else is a conflict it waits on. */
function adoptDataSecret(scope: KubeadmConfigScope, secret: StoredObject): PhaseResult {
  const config = scope.object;
  if (!isOwnDataSecret(config, secret)) {
    return waiting(scope, 'DataSecretConflict', `secret ${config.metadata.name} exists and is not controlled by this KubeadmConfig`);
  }
  scope.dataSecretName = secret.metadata.name;
  scope.conditions.push(...dataSecretConditions({ available: true }));
  return STOP;
}

/** Waits for the controller Machine (set by the Machine controller) and its Cluster. */
export async function resolveOwner(scope: KubeadmConfigScope): Promise<PhaseResult | undefined> {
  const config = scope.object;
  const owner = controllerOf(config);
  if (owner?.kind !== 'Machine') {
    return waiting(scope, 'WaitingForOwner', 'waiting for a Machine to take ownership of this KubeadmConfig');
  }
  const namespace = config.metadata.namespace;
  const machine = await scope.ctx.store.get({ group: CORE_GROUP, kind: 'Machine', namespace, name: owner.name });
  if (!machine) return waiting(scope, 'WaitingForOwner', `owner Machine ${owner.name} not found`);
  scope.machine = machine;
  const clusterName = config.metadata.labels?.[LABEL_CLUSTER_NAME] ?? stringAt(machine, 'spec', 'clusterName');
  if (!clusterName) return waiting(scope, 'WaitingForCluster', 'owner Machine names no cluster');
  scope.clusterName = clusterName;
  const cluster = await scope.ctx.store.get({ group: CORE_GROUP, kind: 'Cluster', namespace, name: clusterName });
  if (!cluster) return waiting(scope, 'WaitingForCluster', `cluster ${clusterName} not found`, WAIT_FOR_INIT_SECONDS);
  scope.cluster = cluster;
  return undefined;
}

export function waitForClusterInfrastructure(scope: KubeadmConfigScope): PhaseResult | undefined {
  if (!scope.cluster) return STOP;
  const readiness = clusterReadiness(scope.cluster);
  if (!readiness.ready) return waiting(scope, readiness.reason, readiness.message);
  scope.endpoint = readiness.endpoint;
  return undefined;
}

/** Init for the lock holder, join once the control plane is initialized, else wait. */
export async function chooseRole(scope: KubeadmConfigScope): Promise<PhaseResult | undefined> {
  const { machine, cluster } = scope;
  if (!machine || !cluster) return STOP;
  const decision = decideRole({
    controlPlaneMachine: isControlPlaneMachine(machine),
    controlPlaneInitialized: controlPlaneInitialized(cluster),
    joinOnly: isJoinOnly(scope.object),
  });
  if (decision.kind === 'wait') return waiting(scope, decision.reason, decision.message, WAIT_FOR_INIT_SECONDS);
  if (decision.kind === 'render') {
    // The init lock is only needed until the control plane is initialized.
    await releaseInitLock(scope.ctx.store, cluster);
    scope.role = decision.role;
    return undefined;
  }
  const lock = await acquireInitLock(scope.ctx.store, cluster, machine.metadata.name);
  if (!lock.acquired) {
    const message =
      lock.reason === 'HeldByOther'
        ? `machine ${lock.holder} holds the init lock; waiting for the control plane to be initialized`
        : 'the init lock was stale or vanished; retrying';
    return waiting(scope, 'WaitingForControlPlaneInitialization', message, WAIT_FOR_INIT_SECONDS);
  }
  scope.role = 'init';
  return undefined;
}

/**
 * Gathers certificates and token, renders the document and stores the data Secret. The init
 * lock is given up only when rendering failed for good: after any other failure the holder's
 * retry re-enters it. (Cluster API unlocks on every error; but a failure reported after the data
 * Secret was in fact written — a lost response, a crash — would then let a second Machine take
 * the lock and render a second `kubeadm init`. A holder that disappears still frees it: see
 * acquireInitLock.)
 */
export async function renderDataSecret(scope: KubeadmConfigScope): Promise<PhaseResult | undefined> {
  const { machine, cluster, clusterName, endpoint, role } = scope;
  if (!machine || !cluster || !clusterName || !endpoint || !role) return STOP;
  try {
    return await renderForRole(scope, { machine, cluster, clusterName, endpoint, role });
  } catch (error) {
    if (role === 'init' && error instanceof TerminalError) await releaseInitLock(scope.ctx.store, cluster);
    throw error;
  }
}

function stringsAt(value: unknown, ...path: string[]): string[] | undefined {
  const found = valueAt(value, ...path);
  return Array.isArray(found) ? found.filter((v): v is string => typeof v === 'string') : undefined;
}

/** Cluster.spec.clusterNetwork, read field by field. */
export function clusterNetworkOf(cluster: StoredObject): Pick<RenderRequest, 'clusterNetwork'> {
  if (!recordAt(cluster, 'spec', 'clusterNetwork')) return {};
  const apiServerPort = numberAt(cluster, 'spec', 'clusterNetwork', 'apiServerPort');
  const services = stringsAt(cluster, 'spec', 'clusterNetwork', 'services', 'cidrBlocks');
  const pods = stringsAt(cluster, 'spec', 'clusterNetwork', 'pods', 'cidrBlocks');
  const serviceDomain = stringAt(cluster, 'spec', 'clusterNetwork', 'serviceDomain');
  return {
    clusterNetwork: {
      ...(apiServerPort !== undefined ? { apiServerPort } : {}),
      ...(services ? { services: { cidrBlocks: services } } : {}),
      ...(pods ? { pods: { cidrBlocks: pods } } : {}),
      ...(serviceDomain ? { serviceDomain } : {}),
    },
  };
}

interface Resolved {
  machine: StoredObject;
  cluster: StoredObject;
  clusterName: string;
  endpoint: NonNullable<KubeadmConfigScope['endpoint']>;
  role: NonNullable<KubeadmConfigScope['role']>;
}

async function renderForRole(scope: KubeadmConfigScope, r: Resolved): Promise<PhaseResult | undefined> {
  const { store } = scope.ctx;
  const ref = { namespace: r.cluster.metadata.namespace, clusterName: r.clusterName };
  const managedByControlPlane = recordAt(r.cluster, 'spec', 'controlPlaneRef') !== undefined;
  const externalEtcd = r.role !== 'worker' && usesExternalEtcd(scope.object.spec);
  let certificates = await lookupClusterCertificates(store, ref, externalEtcd);
  if (r.role === 'init' && !managedByControlPlane && !isComplete(certificates, externalEtcd)) {
    certificates = await ensureClusterCertificates(store, {
      ...ref,
      owner: ownerReferenceTo(r.cluster),
      generate: () => generateCertificates(r.clusterName, scope.object.spec, scope.ctx.clock.now()),
      externalEtcd,
    });
  }
  const needed = r.role === 'worker' ? (certificates.ca ? [] : ['ca']) : missingPurposes(certificates, externalEtcd);
  if (needed.length > 0) {
    return waiting(scope, 'WaitingForCertificates', `cluster certificates missing: ${needed.join(', ')}`, WAIT_FOR_CERTIFICATES_SECONDS);
  }
  const token =
    r.role === 'init'
      ? undefined
      : await ensureBootstrapToken(store, { config: scope.object, clusterName: r.clusterName, now: scope.ctx.clock.now(), generate: generateBootstrapToken });
  const request: RenderRequest = {
    role: r.role,
    clusterName: r.clusterName,
    endpoint: r.endpoint,
    version: stringAt(r.machine, 'spec', 'version') ?? '',
    spec: await resolveSpecSources(store, r.cluster, scope.object.spec ?? {}),
    ...clusterNetworkOf(r.cluster),
    certificates: r.role === 'worker' ? { ca: certificates.ca } : certificates,
    ...(token ? { token } : {}),
  };
  const rendered = renderBootstrapData(request);
  const existing = await createDataSecret(scope, r.clusterName, rendered.value);
  if (existing) {
    // Someone else's Secret under this name: this Machine cannot init, so another one may.
    if (r.role === 'init' && !isOwnDataSecret(scope.object, existing)) await releaseInitLock(store, r.cluster);
    return adoptDataSecret(scope, existing);
  }
  scope.dataSecretName = scope.object.metadata.name;
  scope.conditions.push(...dataSecretConditions({ available: true }));
  scope.conditions.push(userDataSizeCondition(rendered.bytes, rendered.withinUserDataLimit, rendered.gzipped));
  return undefined;
}

/** Creates the data Secret; when one exists already, returns it instead (read once, to adopt it or report the conflict). */
async function createDataSecret(scope: KubeadmConfigScope, clusterName: string, value: string): Promise<StoredObject | undefined> {
  const config = scope.object;
  const key = secretKey(config.metadata.namespace, config.metadata.name);
  try {
    await scope.ctx.store.create({
      apiVersion: 'v1',
      kind: 'Secret',
      type: CLUSTER_SECRET_TYPE,
      metadata: {
        name: key.name,
        namespace: key.namespace,
        labels: { [LABEL_CLUSTER_NAME]: clusterName },
        ownerReferences: [ownerReferenceTo(config)],
      },
      data: { value, format: Buffer.from('cloud-config').toString('base64') },
    });
    return undefined;
  } catch (error) {
    if (!isAlreadyExists(error)) throw error;
  }
  const existing = await scope.ctx.store.get(key);
  if (!existing) throw new TransientError(`secret ${key.name} was reported to exist and is gone; retrying`);
  return existing;
}
