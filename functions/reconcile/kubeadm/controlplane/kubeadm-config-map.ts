/**
 * The workload cluster's `kube-system/kubeadm-config` ConfigMap kept in step with the control
 * plane during a rollout (Cluster API's updateControlPlane → UpdateClusterConfiguration). kubeadm
 * init stores its ClusterConfiguration there, and every later `kubeadm join --control-plane` takes
 * the control plane's static Pods from it, not from the joining Machine: a rollout to v1.32 that
 * leaves `kubernetesVersion: v1.31.2` there makes new Machines that say v1.32 and run a v1.31
 * API server, controller manager and scheduler.
 *
 * Done by update-control-plane.ts while a rollout is under way, before the next Machine is
 * created: `kubernetesVersion` set to the control plane's version and the document moved to that
 * version's kubeadm API (v1beta4 from v1.31: extraArgs become name/value lists, the API server's
 * timeoutForControlPlane goes); and, when the spec has a clusterConfiguration, Cluster API's
 * mutators: its imageRepository (when set), its feature gates with the defaults for the version
 * (ControlPlaneKubeletLocalMode), its apiServer, controllerManager and scheduler, certificate
 * validity and encryption algorithm (v1beta4), and its local etcd (or its external one). The rest
 * (networking, controlPlaneEndpoint, dns …) stays as kubeadm wrote it. Written only when it
 * changes, at the resourceVersion read (a conflict is read again next time).
 *
 * A cluster without the ConfigMap (simulated clusters, whose kubeadm writes none) has nothing to
 * update; one whose ConfigMap lacks the ClusterConfiguration, or holds one that is not a YAML
 * mapping, is an error (tried again), as in Cluster API.
 */

import { parse } from 'yaml';
import { isRecord } from '../../../../shared/contracts/json.js';
import { TerminalError, TransientError } from '../../../../shared/errors/index.js';
import { buildClusterConfiguration, clusterConfigurationSchema, KUBEADM_V1BETA4, kubeadmApiVersion, toKubeadmYaml } from '../../../../shared/kubeadm/index.js';
import type { ConfigMapRef, WorkloadClusterRef } from '../../../../shared/ports/workload-cluster.js';
import { workloadClusterOf } from '../../engine/providers/workload-cluster-port.js';
import { managesEtcd } from './etcd-leadership.js';
import { withDefaultFeatureGates } from './machine-factory.js';
import { canonicalJson } from './machine-facts.js';
import type { KcpScope } from './scope.js';

export const KUBEADM_CONFIG_MAP: ConfigMapRef = { namespace: 'kube-system', name: 'kubeadm-config' };
export const CLUSTER_CONFIGURATION_KEY = 'ClusterConfiguration';

type Document = Record<string, unknown>;

/** v1beta3's extraArgs map as v1beta4's name/value list (sorted by name, as kubeadm converts it). */
function argList(args: unknown): unknown {
  if (!isRecord(args)) return args;
  return Object.keys(args)
    .sort()
    .map((name) => ({ name, value: String(args[name]) }));
}

function withArgList(component: unknown): unknown {
  return isRecord(component) && isRecord(component.extraArgs) ? { ...component, extraArgs: argList(component.extraArgs) } : component;
}

/** A kubeadm v1beta3 ClusterConfiguration as v1beta4 (kubeadm's own conversion, for the fields it changed). */
export function toV1beta4(current: Document): Document {
  const { timeoutForControlPlane: _moved, ...apiServer } = isRecord(current.apiServer) ? current.apiServer : {};
  const etcd = isRecord(current.etcd) && isRecord(current.etcd.local) ? { ...current.etcd, local: withArgList(current.etcd.local) } : current.etcd;
  return {
    ...current,
    apiVersion: KUBEADM_V1BETA4,
    apiServer: withArgList(apiServer),
    controllerManager: withArgList(current.controllerManager),
    scheduler: withArgList(current.scheduler),
    ...(etcd === undefined ? {} : { etcd }),
  };
}

export interface ClusterConfigurationInput {
  /** The control plane's spec.version. */
  version: string;
  /** spec.kubeadmConfigSpec.clusterConfiguration, as stored. */
  clusterConfiguration: unknown;
  clusterName: string;
  managesEtcd: boolean;
}

/** The ClusterConfiguration the ConfigMap should hold, given the one it holds. */
export function desiredClusterConfiguration(current: Document, input: ClusterConfigurationInput): Document {
  const apiVersion = kubeadmApiVersion(input.version);
  const converted = apiVersion === KUBEADM_V1BETA4 && current.apiVersion !== KUBEADM_V1BETA4 ? toV1beta4(current) : current;
  const next: Document = { ...converted, kubernetesVersion: input.version };
  if (!isRecord(input.clusterConfiguration) || Object.keys(input.clusterConfiguration).length === 0) return next;
  const parsed = clusterConfigurationSchema.safeParse(input.clusterConfiguration);
  if (!parsed.success) throw new TerminalError('InvalidSpec', `invalid kubeadmConfigSpec.clusterConfiguration: ${parsed.error.message}`);
  const built = buildClusterConfiguration({ apiVersion, spec: parsed.data, cluster: { name: input.clusterName }, kubernetesVersion: input.version });
  const gates = withDefaultFeatureGates(input.clusterConfiguration, input.version).featureGates;
  const etcd = isRecord(built.etcd) ? built.etcd : {};
  return {
    ...next,
    ...(built.imageRepository ? { imageRepository: built.imageRepository } : {}),
    featureGates: isRecord(gates) && Object.keys(gates).length > 0 ? gates : undefined,
    apiServer: built.apiServer,
    controllerManager: built.controllerManager,
    scheduler: built.scheduler,
    certificateValidityPeriod: built.certificateValidityPeriod,
    encryptionAlgorithm: built.encryptionAlgorithm,
    etcd: input.managesEtcd ? { local: etcd.local ?? {} } : { external: etcd.external },
  };
}

function parseDocument(text: string | undefined): Document {
  if (text === undefined) throw new TransientError(`unable to find "${CLUSTER_CONFIGURATION_KEY}" in the kubeadm-config ConfigMap`);
  let parsed: unknown;
  try {
    parsed = parse(text);
  } catch (error) {
    throw new TransientError(`unable to decode "${CLUSTER_CONFIGURATION_KEY}" in the kubeadm-config ConfigMap from YAML: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!isRecord(parsed)) throw new TransientError(`unable to decode "${CLUSTER_CONFIGURATION_KEY}" in the kubeadm-config ConfigMap: not a mapping`);
  return parsed;
}

/** Brings the stored ClusterConfiguration to the control plane's version and spec. */
export async function updateKubeadmConfigMap(scope: KcpScope, cluster: WorkloadClusterRef): Promise<void> {
  const workload = workloadClusterOf(scope.ctx);
  const configMap = await workload.readConfigMap(cluster, KUBEADM_CONFIG_MAP);
  if (!configMap) {
    scope.ctx.logger.info('the workload cluster has no kubeadm-config ConfigMap: nothing to update');
    return;
  }
  const current = parseDocument(configMap.data[CLUSTER_CONFIGURATION_KEY]);
  const desired = desiredClusterConfiguration(current, {
    version: scope.spec.version,
    clusterConfiguration: scope.spec.kubeadmConfigSpec.clusterConfiguration,
    clusterName: cluster.name,
    managesEtcd: managesEtcd(scope),
  });
  if (canonicalJson(desired) === canonicalJson(current)) return;
  await workload.writeConfigMapData(cluster, KUBEADM_CONFIG_MAP, { [CLUSTER_CONFIGURATION_KEY]: toKubeadmYaml(desired) }, configMap.resourceVersion);
  scope.ctx.logger.info(`updated the kubeadm-config ConfigMap for Kubernetes ${scope.spec.version}`);
}
