/**
 * A stored control-plane Machine for the KubeadmControlPlane's unit tests: `node-<name>` as its
 * Node unless it has none, an AWS providerID, and the marks a test sets.
 */
import type { StoredObject } from '../../shared/contracts/object.js';

export interface ControlPlaneMachineShape {
  name: string;
  /** creationTimestamp. @default 2026-01-01T00:00:00Z */
  created?: string;
  deleting?: boolean;
  /** false: its Node never registered. */
  node?: boolean;
  /** HealthCheckSucceeded, when set. */
  healthy?: boolean;
}

export function controlPlaneMachine(shape: ControlPlaneMachineShape): StoredObject {
  return {
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    kind: 'Machine',
    metadata: {
      name: shape.name,
      namespace: 'default',
      uid: shape.name,
      resourceVersion: '1',
      generation: 1,
      creationTimestamp: shape.created ?? '2026-01-01T00:00:00Z',
      ...(shape.deleting ? { deletionTimestamp: '2026-01-02T00:00:00Z' } : {}),
    },
    spec: { clusterName: 'c1', providerID: `aws:///us-east-1a/i-${shape.name}` },
    status: {
      ...(shape.node === false ? {} : { nodeRef: { name: `node-${shape.name}` } }),
      ...(shape.healthy === undefined ? {} : { conditions: [{ type: 'HealthCheckSucceeded', status: shape.healthy ? 'True' : 'False', reason: 'x', lastTransitionTime: '2026-01-01T00:00:00Z' }] }),
    },
  };
}
