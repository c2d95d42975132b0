import type { MachineFacts } from '../../../../functions/reconcile/kubeadm/controlplane/machine-facts.js';

/** Builds MachineFacts for table tests: `name@fd` with flags. */
export function fact(name: string, overrides: Partial<MachineFacts> = {}): MachineFacts {
  return {
    name,
    creationTimestamp: `2026-01-01T00:00:0${name.slice(-1)}Z`,
    deleting: false,
    ready: true,
    upToDate: true,
    outdatedReasons: [],
    deleteAnnotated: false,
    hasNode: true,
    version: 'v1.31.0',
    ...overrides,
  };
}
