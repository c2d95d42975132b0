import { booleanAt } from '../../../../shared/contracts/json.js';
import type { StoredObject } from '../../../../shared/contracts/object.js';
import type { CertificatePair } from '../common/cluster-certificates.js';
import type { Endpoint } from '../common/cluster-readiness.js';
import type { ReconcileContext, Scope } from '../../engine/skeleton/types.js';
import { type KcpSpec, readKcpSpec } from './kcp-spec.js';
import type { MachineFacts } from './machine-facts.js';
import type { ControlPlanePlan } from './plan.js';
import type { ListedMembers } from './etcd-quorum.js';
import type { ControlPlaneHealth } from './available.js';

/** What the KubeadmControlPlane phases find, in the order they find it. */
export interface KcpScope extends Scope {
  spec: KcpSpec;
  cluster?: StoredObject;
  clusterName?: string;
  endpoint?: Endpoint;
  missingCertificates: string[];
  /** The cluster CA, when present: it signs the admin kubeconfig. */
  ca?: CertificatePair;
  /** Control-plane Machines controlled by this KCP. */
  machines: StoredObject[];
  facts: MachineFacts[];
  /** Everything labelled with the cluster name (Machines, configs, InfraMachines …). */
  clusterObjects: StoredObject[];
  /** Sticky: once initialized, a control plane never goes back to init. */
  initialized: boolean;
  plan?: ControlPlanePlan;
  /** Why a planned machine could not be created (e.g. the infrastructure template is missing). */
  creationProblem?: string;
  /** Why a Machine marked for remediation is not remediated now (etcd quorum, rollout …). */
  remediationBlocked?: string;
  /** The etcd members as the health check listed them this reconcile (etcd-view.ts). */
  etcdMembers?: ListedMembers;
  /** What the health check learned of the Machines and etcd this reconcile (control-plane-health.ts). */
  health?: ControlPlaneHealth;
}

export function createKcpScope(ctx: ReconcileContext, object: StoredObject): KcpScope {
  return {
    ctx,
    object,
    conditions: [],
    spec: readKcpSpec(object),
    missingCertificates: [],
    machines: [],
    facts: [],
    clusterObjects: [],
    initialized: booleanAt(object, 'status', 'initialization', 'controlPlaneInitialized') === true,
  };
}
