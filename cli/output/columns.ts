import { isRecord, stringAt, valueAt } from '../../shared/contracts/json.js';
import { ageOf } from '../../shared/contracts/printing/age.js';
import { readyText } from './conditions.js';

/** One column of `capless get`: a header and how to read it from an object. */
export interface Column {
  header: string;
  value(object: unknown, now: number): string;
  /** Shown with `-o wide` only. */
  wide?: boolean;
}

const text = (value: unknown): string => (value === undefined || value === null || value === '' ? '' : String(value));
const at = (header: string, path: string[], wide = false): Column => ({ header, value: (o) => text(valueAt(o, ...path)), ...(wide ? { wide } : {}) });
const clusterName: Column = {
  header: 'CLUSTER',
  value: (o) => stringAt(o, 'spec', 'clusterName') ?? stringAt(o, 'metadata', 'labels', 'cluster.x-k8s.io/cluster-name') ?? '',
};
const ready: Column = { header: 'READY', value: readyText };
const phase = at('PHASE', ['status', 'phase']);
const age: Column = { header: 'AGE', value: (o, now) => ageOf(stringAt(o, 'metadata', 'creationTimestamp'), now) };
const version = (path: string[]) => at('VERSION', path, true);
const replicas = at('REPLICAS', ['spec', 'replicas']);
const readyReplicas = at('READY-REPLICAS', ['status', 'readyReplicas']);

const BY_KIND: Record<string, Column[]> = {
  Cluster: [{ header: 'AVAILABLE', value: readyText }, phase, age, version(['spec', 'topology', 'version'])],
  Machine: [clusterName, at('NODENAME', ['status', 'nodeRef', 'name']), ready, phase, age, version(['spec', 'version']), at('PROVIDERID', ['spec', 'providerID'], true)],
  MachineSet: [clusterName, replicas, readyReplicas, ready, age, version(['spec', 'template', 'spec', 'version'])],
  MachineDeployment: [clusterName, replicas, readyReplicas, { header: 'AVAILABLE', value: readyText }, phase, age, version(['spec', 'template', 'spec', 'version'])],
  KubeadmControlPlane: [
    clusterName,
    { header: 'INITIALIZED', value: (o) => text(valueAt(o, 'status', 'initialization', 'controlPlaneInitialized') ?? valueAt(o, 'status', 'initialized')) },
    replicas,
    readyReplicas,
    ready,
    age,
    version(['spec', 'version']),
  ],
  Secret: [at('TYPE', ['type']), { header: 'DATA', value: (o) => String(Object.keys(recordOr(valueAt(o, 'data'))).length) }, age],
};

function recordOr(value: unknown): Record<string, unknown> {
  return isRecord(value) ? value : {};
}

/** Per-kind columns after NAME (and NAMESPACE); other kinds get READY (when they have conditions) and AGE. */
export function columnsFor(kind: string, sample: readonly unknown[]): Column[] {
  const known = BY_KIND[kind];
  if (known) return known;
  const hasReadiness = sample.some((o) => readyText(o) !== '-');
  return hasReadiness ? [ready, age] : [age];
}
