/**
 * A KubeadmControlPlane records when each of its Machines' kube-apiserver certificate expires
 * (Cluster API's reconcileCertificateExpiries), so that `rollout.before.certificatesExpiryDays`
 * can replace a Machine before it does: once the control plane is initialized, for each Machine
 * not being deleted whose Node joined and whose KubeadmConfig carries no
 * `machine.cluster.x-k8s.io/certificates-expiry` yet, it reads the certificate from the Node's
 * kube-apiserver (WorkloadCluster port, on the port kubeadm bound it to) and annotates the
 * KubeadmConfig; the Machine copies it into `status.certificatesExpiryDate`. Last in the
 * reconcile, as in Cluster API, so that nothing else waits on it; a workload API that does not
 * answer is asked again in 30 s. A Machine that already reports an expiry (from its own annotation
 * or its config's) is not looked at again: a config is read only until its Machine has one.
 */
import { numberAt, stringAt } from '../../../../shared/contracts/json.js';
import { ANNOTATION_CERTIFICATES_EXPIRY, isDeleting, type StoredObject } from '../../../../shared/contracts/object.js';
import { isWorkloadClusterError } from '../../../../shared/ports/workload-cluster.js';
import { workloadClusterOf } from '../../engine/providers/workload-cluster-port.js';
import { updateFresh } from '../../engine/references/update-fresh.js';
import type { PhaseResult } from '../../engine/skeleton/types.js';
import { BOOTSTRAP_GROUP } from '../common/well-known.js';
import { DAY_MS, machineNode } from './machine-facts.js';
import type { KcpScope } from './scope.js';

export const CERTIFICATE_EXPIRY_RETRY_SECONDS = 30;
const DEFAULT_API_SERVER_PORT = 6443;

/** calculateAPIServerPort: the init or join configuration's bind port, else kubeadm's default. */
export function apiServerPortOf(config: StoredObject): number {
  return (
    numberAt(config, 'spec', 'initConfiguration', 'localAPIEndpoint', 'bindPort') ||
    numberAt(config, 'spec', 'joinConfiguration', 'controlPlane', 'localAPIEndpoint', 'bindPort') ||
    DEFAULT_API_SERVER_PORT
  );
}

async function kubeadmConfigOf(scope: KcpScope, machine: StoredObject): Promise<StoredObject | undefined> {
  const name = stringAt(machine, 'spec', 'bootstrap', 'configRef', 'name');
  return name ? scope.ctx.store.get({ group: BOOTSTRAP_GROUP, kind: 'KubeadmConfig', namespace: machine.metadata.namespace, name }) : undefined;
}

export async function reconcileCertificateExpiries(scope: KcpScope): Promise<PhaseResult> {
  if (!scope.initialized || !scope.clusterName) return {};
  const workload = workloadClusterOf(scope.ctx);
  const cluster = { namespace: scope.object.metadata.namespace, name: scope.clusterName };
  const recorded: string[] = [];
  for (const machine of scope.machines.filter((m) => !isDeleting(m))) {
    const node = machineNode(machine);
    // A Machine that reports an expiry has it from its own annotation or its config's: nothing to read.
    if (!node || stringAt(machine, 'status', 'certificatesExpiryDate')) continue;
    const config = await kubeadmConfigOf(scope, machine);
    if (!config) continue;
    const already = config.metadata.annotations?.[ANNOTATION_CERTIFICATES_EXPIRY];
    if (already !== undefined) {
      // Recorded before; its Machine has not taken it up yet: it still counts for the requeue.
      recorded.push(already);
      continue;
    }
    let expiry: string | undefined;
    try {
      expiry = await workload.apiServerCertificateExpiry(cluster, node, apiServerPortOf(config));
    } catch (error) {
      if (!isWorkloadClusterError(error)) throw error;
      scope.ctx.logger.warn(`failed to reconcile certificate expiry for Machine ${machine.metadata.name}`, { error: error.message });
      return { requeueAfterSeconds: CERTIFICATE_EXPIRY_RETRY_SECONDS };
    }
    if (!expiry) continue;
    const annotated = expiry;
    recorded.push(expiry);
    await updateFresh(scope.ctx.store, config, (current) =>
      current.metadata.annotations?.[ANNOTATION_CERTIFICATES_EXPIRY] !== undefined
        ? undefined
        : { ...current, metadata: { ...current.metadata, annotations: { ...current.metadata.annotations, [ANNOTATION_CERTIFICATES_EXPIRY]: annotated } } },
    );
  }
  const wait = secondsUntilCertificatesRollout(scope, recorded);
  return wait === undefined ? {} : { requeueAfterSeconds: wait };
}

/**
 * When the first Machine's certificates come within `certificatesExpiryDays` of expiring (those
 * its Machines report, and those just recorded, which their Machines report next): the control
 * plane looks again then, without waiting for anything else to change (Cluster API relies on its
 * periodic resync). A Machine taking up its expiry does not wake the control plane: this requeue
 * stands for it.
 */
export function secondsUntilCertificatesRollout(scope: KcpScope, recorded: readonly string[] = []): number | undefined {
  const days = scope.spec.certificatesExpiryDays;
  if (!days) return undefined;
  const now = scope.ctx.clock.now().getTime();
  const reported = scope.machines.filter((m) => !isDeleting(m)).flatMap((m) => stringAt(m, 'status', 'certificatesExpiryDate') ?? []);
  const due = [...reported, ...recorded]
    .map((expiry) => Date.parse(expiry) - days * DAY_MS)
    .filter((at) => !Number.isNaN(at) && at > now);
  // A second past the moment: the rollout rule wants the expiry strictly inside the window.
  return due.length === 0 ? undefined : Math.ceil((Math.min(...due) - now) / 1000) + 1;
}
