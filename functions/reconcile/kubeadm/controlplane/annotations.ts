/** KCP annotations: skip-coredns, skip-kube-proxy and remediation-in-progress (capi-contract.md §1.5). */

import { numberAt, stringAt } from '../../../../shared/contracts/json.js';
import type { KubeObject } from '../../../../shared/contracts/object.js';

export const ANNOTATION_SKIP_COREDNS = 'controlplane.cluster.x-k8s.io/skip-coredns';
export const ANNOTATION_SKIP_KUBE_PROXY = 'controlplane.cluster.x-k8s.io/skip-kube-proxy';
export const ANNOTATION_REMEDIATION_IN_PROGRESS = 'controlplane.cluster.x-k8s.io/remediation-in-progress';

export interface RemediationInProgress {
  machine: string;
  timestamp?: string;
  retryCount?: number;
}

/** The parsed annotation; a value that is not the expected JSON still blocks scaling (machine "unknown"). */
export function remediationInProgress(kcp: KubeObject): RemediationInProgress | undefined {
  const raw = kcp.metadata.annotations?.[ANNOTATION_REMEDIATION_IN_PROGRESS];
  if (raw === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return { machine: 'unknown' };
  }
  const timestamp = stringAt(parsed, 'timestamp');
  const retryCount = numberAt(parsed, 'retryCount');
  return {
    machine: stringAt(parsed, 'machine') ?? 'unknown',
    ...(timestamp ? { timestamp } : {}),
    ...(retryCount !== undefined ? { retryCount } : {}),
  };
}

export interface AddonSkips {
  coreDNS: boolean;
  kubeProxy: boolean;
}

export function addonSkips(kcp: KubeObject): AddonSkips {
  const annotations = kcp.metadata.annotations ?? {};
  return { coreDNS: ANNOTATION_SKIP_COREDNS in annotations, kubeProxy: ANNOTATION_SKIP_KUBE_PROXY in annotations };
}
