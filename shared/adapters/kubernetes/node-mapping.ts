/** A Node as client-node returns it → what the core sees of it (WorkloadNode). */
import type { V1Node } from '@kubernetes/client-node';
import type { NodeTaint, WorkloadNode, WorkloadNodeCondition } from '../../ports/workload-cluster.js';

export function workloadNodeOf(node: V1Node): WorkloadNode | undefined {
  const name = node.metadata?.name;
  if (!name) return undefined;
  const conditions: WorkloadNodeCondition[] = (node.status?.conditions ?? []).flatMap((c) =>
    typeof c.type === 'string' && typeof c.status === 'string'
      ? [{ type: c.type, status: c.status, ...(c.lastTransitionTime ? { lastTransitionTime: isoTime(c.lastTransitionTime) } : {}) }]
      : [],
  );
  const info = Object.fromEntries(Object.entries(node.status?.nodeInfo ?? {}).filter((e): e is [string, string] => typeof e[1] === 'string'));
  const taints: NodeTaint[] = (node.spec?.taints ?? []).map((t) => ({ key: t.key, effect: t.effect, ...(t.value !== undefined ? { value: t.value } : {}) }));
  return {
    name,
    ready: conditions.some((c) => c.type === 'Ready' && c.status === 'True'),
    conditions,
    ...(Object.keys(info).length > 0 ? { info } : {}),
    labels: { ...node.metadata?.labels },
    annotations: { ...node.metadata?.annotations },
    taints,
    ...(node.spec?.unschedulable ? { unschedulable: true } : {}),
    ...(node.status?.volumesAttached?.length ? { volumesAttached: node.status.volumesAttached.map((v) => v.name) } : {}),
    ...(node.metadata?.resourceVersion ? { resourceVersion: node.metadata.resourceVersion } : {}),
    ...(node.metadata?.creationTimestamp ? { creationTimestamp: isoTime(node.metadata.creationTimestamp) } : {}),
  };
}

/** client-node parses date-time fields into Date; the core keeps RFC 3339 strings. */
function isoTime(value: Date | string): string {
  return value instanceof Date ? value.toISOString().replace(/\.\d{3}Z$/, 'Z') : value;
}
