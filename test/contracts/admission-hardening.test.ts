/**
 * Bad input is refused with a 4xx naming the field at fault: Kubernetes' ObjectMeta rules on
 * every kind (labels, annotations, finalizers, generateName), int32 bounds of the CRDs, and the
 * apiVersion format.
 */

import { describe, expect, it } from 'vitest';
import { admitCreate, admitStatusUpdate, admitUpdate } from '../../shared/contracts/admission/admit.js';
import { ApiError, InvalidError, NotFoundError } from '../../shared/errors/index.js';
import {
  cluster,
  ctx,
  inMemoryMachine,
  kubeadmConfig,
  kubeadmControlPlane,
  machine,
  machineDeployment,
  machineSet,
  secret,
  withValue,
} from './admission-fixtures.js';

const INT32_MAX = 2_147_483_647;
const INT32_OVER = 2_147_483_648;

function rejection(run: () => unknown): ApiError {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected admission to reject the object');
}

const rejectCreate = (obj: unknown) => rejection(() => admitCreate(obj, ctx));

function expectInvalid(obj: unknown, field: string, reason = 'FieldValueInvalid'): InvalidError {
  const error = rejectCreate(obj);
  expect(error).toBeInstanceOf(InvalidError);
  expect(error.code).toBe(422);
  expect(error.causes).toContainEqual(expect.objectContaining({ field, reason }));
  return error as InvalidError;
}

function configMap() {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', namespace: 'default' }, data: { a: 'b' } };
}

function dockerMachine() {
  return { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2', kind: 'DockerMachine', metadata: { name: 'd1' }, spec: {} };
}

function machineHealthCheck() {
  return {
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    kind: 'MachineHealthCheck',
    metadata: { name: 'mhc' },
    spec: { clusterName: 'c1', selector: { matchLabels: { pool: 'a' } } },
  };
}

function extensionConfig() {
  return {
    apiVersion: 'runtime.cluster.x-k8s.io/v1beta2',
    kind: 'ExtensionConfig',
    metadata: { name: 'ext' },
    spec: { clientConfig: { service: { name: 'svc', namespace: 'default', port: 443 } } },
  };
}

function clusterctlMetadata() {
  return {
    apiVersion: 'clusterctl.cluster.x-k8s.io/v1alpha3',
    kind: 'Metadata',
    releaseSeries: [{ major: 1, minor: 11, contract: 'v1beta2' }],
  };
}

type MetaKey = 'labels' | 'annotations' | 'finalizers' | 'generateName' | 'ownerReferences';

function withMeta<T extends object>(obj: T, key: MetaKey, value: unknown): T {
  const copy = structuredClone(obj) as T & { metadata?: Record<string, unknown> };
  copy.metadata = { ...copy.metadata, [key]: value };
  return copy;
}

const NAME_PART_REGEX =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const LABEL_VALUE_REGEX =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

describe('metadata.labels (apimachinery ValidateLabels)', () => {
  it.each<[string, Record<string, string>]>([
    ['a plain key and value', { app: 'web' }],
    ['a prefixed key and an empty value', { 'example.com/app': '' }],
    ['mixed case, dots, dashes and underscores', { 'App_1.x-y': 'My_Value-1.2' }],
    ['a 63-character name part and value', { ['k'.repeat(63)]: 'v'.repeat(63) }],
    ['a 253-character prefix', { [`${'a'.repeat(61)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}/x`]: 'y' }],
    ['a single character', { a: 'b' }],
  ])('accepts %s', (_name, labels) => {
    expect(admitCreate(withMeta(machine(), 'labels', labels), ctx).metadata.labels).toMatchObject(labels);
  });

  it.each<[string, Record<string, string>, string]>([
    ['a 100k-character key', { ['k'.repeat(100_000)]: 'v' }, 'name part must be no more than 63 characters'],
    ['a 100k-character value', { app: 'v'.repeat(100_000) }, 'must be no more than 63 characters'],
    ['a key with NUL', { 'a\u0000b': 'v' }, NAME_PART_REGEX],
    ['a value with a newline', { app: 'web\n' }, LABEL_VALUE_REGEX],
    ['a 64-character name part', { ['k'.repeat(64)]: 'v' }, 'name part must be no more than 63 characters'],
    ['an empty key', { '': 'v' }, 'name part must be non-empty'],
    ['an empty prefix', { '/app': 'v' }, 'prefix part must be non-empty'],
    ['an empty name part', { 'example.com/': 'v' }, 'name part must be non-empty'],
    ['two slashes', { 'a/b/c': 'v' }, "with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"],
    ['an upper-case prefix', { 'Example.com/app': 'v' }, 'prefix part a lowercase RFC 1123 subdomain'],
    ['a 254-character prefix', { [`${'a'.repeat(254)}/x`]: 'v' }, 'prefix part must be no more than 253 characters'],
    ['a key starting with a dash', { '-app': 'v' }, NAME_PART_REGEX],
    ['a value ending with a dot', { app: 'web.' }, LABEL_VALUE_REGEX],
    ['a value with a space', { app: 'a b' }, LABEL_VALUE_REGEX],
  ])('refuses %s on metadata.labels', (_name, labels, detail) => {
    const error = expectInvalid(withMeta(machine(), 'labels', labels), 'metadata.labels');
    expect(error.causes.find((cause) => cause.field === 'metadata.labels')?.message).toContain(detail);
  });

  it('words the error like the API server and does not echo a huge value whole', () => {
    const error = rejectCreate(withMeta(machine(), 'labels', { 'a\u0000b': 'v' }));
    expect(error.causes).toEqual([
      { field: 'metadata.labels', reason: 'FieldValueInvalid', message: `Invalid value: "a\\u0000b": ${NAME_PART_REGEX}` },
    ]);
    const huge = rejectCreate(withMeta(machine(), 'labels', { app: 'v'.repeat(100_000) }));
    expect(huge.message.length).toBeLessThan(2_000);
    expect(huge.causes[0]?.message).toContain('(100000 characters)');
  });

  it('accepts 20k valid labels (Kubernetes sets no count or size limit on labels)', () => {
    const labels = Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`example.com/label-${i}`, `value-${i}`]));
    const admitted = admitCreate(withMeta(machine(), 'labels', labels), ctx);
    expect(Object.keys(admitted.metadata.labels ?? {})).toHaveLength(20_001);
  });

  it.each<[string, () => object]>([
    ['Secret', secret],
    ['ConfigMap', configMap],
    ['Cluster', cluster],
    ['Machine', machine],
    ['MachineSet', machineSet],
    ['MachineDeployment', machineDeployment],
    ['MachineHealthCheck', machineHealthCheck],
    ['KubeadmControlPlane', kubeadmControlPlane],
    ['KubeadmConfig', kubeadmConfig],
    ['InMemoryMachine', inMemoryMachine],
    ['DockerMachine (loosely modelled)', dockerMachine],
    ['ExtensionConfig', extensionConfig],
    ['clusterctl Metadata', clusterctlMetadata],
  ])('holds for %s, on create and on update', (_kind, make) => {
    const bad = withMeta(make(), 'labels', { 'bad key': 'v' });
    expectInvalid(bad, 'metadata.labels');
    const old = admitCreate(make(), ctx);
    const error = rejection(() => admitUpdate({ ...bad, metadata: { ...old.metadata, labels: { 'bad key': 'v' } } }, old, ctx));
    expect(error.code).toBe(422);
    expect(error.causes).toContainEqual(expect.objectContaining({ field: 'metadata.labels', reason: 'FieldValueInvalid' }));
  });

  it.each<[string, object, string]>([
    [
      'MachineSet template',
      withValue(machineSet(), 'spec.template.metadata.labels', { 'x/y/z': 'v' }),
      'spec.template.metadata.labels',
    ],
    [
      'MachineDeployment template',
      withValue(machineDeployment(), 'spec.template.metadata.annotations', { 'bad key': '' }),
      'spec.template.metadata.annotations',
    ],
    [
      'KubeadmControlPlane machine template',
      withValue(kubeadmControlPlane(), 'spec.machineTemplate.metadata', { labels: { ok: 'bad\nvalue' } }),
      'spec.machineTemplate.metadata.labels',
    ],
    [
      'Cluster topology control plane',
      withValue(cluster(), 'spec.topology', { classRef: { name: 'cc' }, version: 'v1.31.0', controlPlane: { metadata: { labels: { '-x': 'v' } } } }),
      'spec.topology.controlPlane.metadata.labels',
    ],
  ])('holds for embedded template metadata: %s', (_name, obj, field) => {
    expectInvalid(obj, field);
  });

  it('does not re-check labels on a status write (metadata comes from the stored object)', () => {
    const old = admitCreate(machine(), ctx);
    const next = { ...machine(), metadata: { ...machine().metadata, labels: { 'bad key': 'v' } }, status: { phase: 'Running' } };
    expect(admitStatusUpdate(next, old, ctx).metadata.labels).toEqual(old.metadata.labels);
  });
});

describe('metadata.annotations (apimachinery ValidateAnnotations)', () => {
  const LIMIT = 262_144;

  it.each<[string, Record<string, string>]>([
    ['a prefixed key with a long value', { 'example.com/notes': 'x'.repeat(100_000) }],
    ['an upper-case prefix (keys are checked lower-cased)', { 'Example.COM/Note': 'v' }],
    ['values with newlines and NUL (values are free text)', { note: 'a\nb\u0000c' }],
    ['keys and values of exactly 256 KiB in all', { k: 'v'.repeat(LIMIT - 1) }],
  ])('accepts %s', (_name, annotations) => {
    expect(admitCreate(withMeta(cluster(), 'annotations', annotations), ctx).metadata.annotations).toEqual(annotations);
  });

  it.each<[string, Record<string, string>, string, string]>([
    ['a 100k-character key', { ['k'.repeat(100_000)]: 'v' }, 'FieldValueInvalid', 'name part must be no more than 63 characters'],
    ['a key with NUL', { 'a\u0000b': 'v' }, 'FieldValueInvalid', NAME_PART_REGEX],
    ['a key with a space', { 'my note': 'v' }, 'FieldValueInvalid', NAME_PART_REGEX],
    ['one byte over 256 KiB', { k: 'v'.repeat(LIMIT) }, 'FieldValueTooLong', 'Too long: must have at most 262144 bytes'],
    ['256 KiB counted in UTF-8 bytes', { k: 'é'.repeat(LIMIT / 2) }, 'FieldValueTooLong', 'Too long: must have at most 262144 bytes'],
    [
      'several values over 256 KiB together',
      { a: 'v'.repeat(LIMIT / 2), b: 'v'.repeat(LIMIT / 2) },
      'FieldValueTooLong',
      'Too long: must have at most 262144 bytes',
    ],
  ])('refuses %s on metadata.annotations', (_name, annotations, reason, detail) => {
    const error = expectInvalid(withMeta(cluster(), 'annotations', annotations), 'metadata.annotations', reason);
    expect(error.causes.find((cause) => cause.field === 'metadata.annotations')?.message).toContain(detail);
  });

  it('renders the size error as Kubernetes does', () => {
    const error = rejectCreate(withMeta(cluster(), 'annotations', { k: 'v'.repeat(LIMIT) }));
    expect(error.message).toBe('Cluster.cluster.x-k8s.io "c1" is invalid: metadata.annotations: Too long: must have at most 262144 bytes');
  });
});

describe('metadata.finalizers (apimachinery ValidateFinalizers)', () => {
  it.each<[string, string[]]>([
    ['domain-qualified finalizers', ['example.com/cleanup', 'machine.cluster.x-k8s.io']],
    ['the built-in orphan finalizer', ['orphan']],
    ['the built-in foregroundDeletion finalizer', ['foregroundDeletion']],
    ['duplicates (Kubernetes does not refuse them)', ['example.com/a', 'example.com/a']],
  ])('accepts %s', (_name, finalizers) => {
    expect(admitCreate(withMeta(machine(), 'finalizers', finalizers), ctx).metadata.finalizers).toEqual(finalizers);
  });

  it.each<[string, string[], string]>([
    ['a 100k-character finalizer', ['f'.repeat(100_000)], 'name part must be no more than 63 characters'],
    ['an empty finalizer', [''], 'name part must be non-empty'],
    ['a finalizer with a newline', ['example.com/clean\nup'], NAME_PART_REGEX],
    ['a finalizer with two slashes', ['a/b/c'], 'a qualified name must consist of'],
    ['a finalizer with an upper-case prefix', ['Example.com/cleanup'], 'prefix part a lowercase RFC 1123 subdomain'],
    ['orphan with foregroundDeletion', ['orphan', 'foregroundDeletion'], 'finalizer orphan and foregroundDeletion cannot be both set'],
  ])('refuses %s on metadata.finalizers', (_name, finalizers, detail) => {
    const error = expectInvalid(withMeta(machine(), 'finalizers', finalizers), 'metadata.finalizers');
    expect(error.causes.find((cause) => cause.field === 'metadata.finalizers')?.message).toContain(detail);
  });
});

describe('metadata.name and metadata.generateName', () => {
  it.each([['web-'], ['web'], ['a-'], ['a.b-']])('accepts generateName %j', (generateName) => {
    expect(admitCreate(withMeta(machine(), 'generateName', generateName), ctx).metadata).toMatchObject({ generateName });
  });

  it.each([['Web-'], ['web_'], ['-web'], [`${'a'.repeat(254)}-`], ['web\n']])('refuses generateName %j', (generateName) => {
    expectInvalid(withMeta(machine(), 'generateName', generateName), 'metadata.generateName');
  });

  it.each<[string, unknown, string, string]>([
    ['an upper-case name', 'Web', 'metadata.name', 'FieldValueInvalid'],
    ['a 254-character name', 'a'.repeat(254), 'metadata.name', 'FieldValueTooLong'],
    ['a 100k-character name', 'a'.repeat(100_000), 'metadata.name', 'FieldValueTooLong'],
    ['a name with NUL', 'a\u0000b', 'metadata.name', 'FieldValueInvalid'],
  ])('refuses %s', (_name, name, field, reason) => {
    expectInvalid(withValue(machine(), 'metadata.name', name), field, reason);
  });
});

describe('metadata.ownerReferences', () => {
  const owner = (name: string, controller?: boolean) => ({
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    kind: 'MachineSet',
    name,
    uid: 'a4c1e0d2-0000-4000-8000-000000000001',
    ...(controller === undefined ? {} : { controller }),
  });

  it('accepts one controller and other owners', () => {
    const refs = [owner('ms1', true), owner('ms2', false), owner('ms3')];
    expect(admitCreate(withMeta(machine(), 'ownerReferences', refs), ctx).metadata.ownerReferences).toEqual(refs);
  });

  it.each<[string, unknown[], string, string]>([
    ['a 1100-character owner name', [owner('a'.repeat(1100))], 'metadata.ownerReferences[0].name', 'FieldValueTooLong'],
    ['an owner name with NUL', [owner('a\u0000b')], 'metadata.ownerReferences[0].name', 'FieldValueInvalid'],
    ['an empty uid', [{ ...owner('ms1'), uid: '' }], 'metadata.ownerReferences[0].uid', 'FieldValueRequired'],
    ['an owner apiVersion "/v1"', [{ ...owner('ms1'), apiVersion: '/v1' }], 'metadata.ownerReferences[0].apiVersion', 'FieldValueInvalid'],
    ['two controllers', [owner('ms1', true), owner('ms2', true)], 'metadata.ownerReferences', 'FieldValueInvalid'],
  ])('refuses %s', (_name, refs, field, reason) => {
    expectInvalid(withMeta(machine(), 'ownerReferences', refs), field, reason);
  });

  it('words the two-controller error as Kubernetes does', () => {
    const error = rejectCreate(withMeta(machine(), 'ownerReferences', [owner('ms1', true), owner('ms2', true)]));
    expect(error.causes[0]?.message).toContain('Only one reference can have Controller set to true. Found "true" in references for MachineSet/ms1 and MachineSet/ms2');
  });
});

describe('int32 fields (CRD format: int32)', () => {
  it.each<[string, object, string]>([
    ['MachineSet replicas', withValue(machineSet(), 'spec.replicas', INT32_OVER), 'spec.replicas'],
    ['MachineDeployment replicas', withValue(machineDeployment(), 'spec.replicas', INT32_OVER), 'spec.replicas'],
    ['KubeadmControlPlane replicas', withValue(kubeadmControlPlane(), 'spec.replicas', INT32_OVER), 'spec.replicas'],
    ['KubeadmControlPlane replicas below int32', withValue(kubeadmControlPlane(), 'spec.replicas', -INT32_OVER - 1), 'spec.replicas'],
    ['Machine minReadySeconds', withValue(machine(), 'spec.minReadySeconds', INT32_OVER), 'spec.minReadySeconds'],
    [
      'Machine nodeDrainTimeoutSeconds',
      withValue(machine(), 'spec.deletion', { nodeDrainTimeoutSeconds: INT32_OVER }),
      'spec.deletion.nodeDrainTimeoutSeconds',
    ],
    [
      'MachineDeployment template minReadySeconds',
      withValue(machineDeployment(), 'spec.template.spec.minReadySeconds', INT32_OVER),
      'spec.template.spec.minReadySeconds',
    ],
    [
      'MachineDeployment maxSurge (int-or-string)',
      withValue(machineDeployment(), 'spec.rollout', { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: INT32_OVER } } }),
      'spec.rollout.strategy.rollingUpdate.maxSurge',
    ],
    ['Cluster controlPlaneEndpoint port', withValue(cluster(), 'spec.controlPlaneEndpoint', { host: 'h', port: INT32_OVER }), 'spec.controlPlaneEndpoint.port'],
    ['Cluster controlPlaneEndpoint port 65536', withValue(cluster(), 'spec.controlPlaneEndpoint', { host: 'h', port: 65_536 }), 'spec.controlPlaneEndpoint.port'],
    ['Cluster apiServerPort', withValue(cluster(), 'spec.clusterNetwork', { apiServerPort: INT32_OVER }), 'spec.clusterNetwork.apiServerPort'],
    [
      'Cluster topology control plane replicas',
      withValue(cluster(), 'spec.topology', { classRef: { name: 'cc' }, version: 'v1.31.0', controlPlane: { replicas: INT32_OVER } }),
      'spec.topology.controlPlane.replicas',
    ],
    [
      'Cluster topology worker replicas',
      withValue(cluster(), 'spec.topology', {
        classRef: { name: 'cc' },
        version: 'v1.31.0',
        workers: { machineDeployments: [{ class: 'w', name: 'md', replicas: INT32_OVER }] },
      }),
      'spec.topology.workers.machineDeployments[0].replicas',
    ],
    [
      'KubeadmControlPlane remediation maxRetry',
      withValue(kubeadmControlPlane(), 'spec.remediation', { maxRetry: INT32_OVER }),
      'spec.remediation.maxRetry',
    ],
    [
      'KubeadmControlPlane certificatesExpiryDays',
      withValue(kubeadmControlPlane(), 'spec.rollout', { before: { certificatesExpiryDays: INT32_OVER } }),
      'spec.rollout.before.certificatesExpiryDays',
    ],
    ['KubeadmConfig verbosity', withValue(kubeadmConfig(), 'spec.verbosity', INT32_OVER), 'spec.verbosity'],
    [
      'KubeadmConfig join timeout',
      withValue(kubeadmConfig(), 'spec.joinConfiguration', { timeouts: { discoverySeconds: INT32_OVER } }),
      'spec.joinConfiguration.timeouts.discoverySeconds',
    ],
    [
      'KubeadmConfig bindPort',
      withValue(kubeadmConfig(), 'spec.initConfiguration', { localAPIEndpoint: { bindPort: INT32_OVER } }),
      'spec.initConfiguration.localAPIEndpoint.bindPort',
    ],
    [
      'MachineHealthCheck nodeStartupTimeoutSeconds',
      withValue(machineHealthCheck(), 'spec.checks', { nodeStartupTimeoutSeconds: INT32_OVER }),
      'spec.checks.nodeStartupTimeoutSeconds',
    ],
    [
      'MachineHealthCheck unhealthyLessThanOrEqualTo',
      withValue(machineHealthCheck(), 'spec.remediation', { triggerIf: { unhealthyLessThanOrEqualTo: INT32_OVER } }),
      'spec.remediation.triggerIf.unhealthyLessThanOrEqualTo',
    ],
    [
      'MachineHealthCheck node condition timeout',
      withValue(machineHealthCheck(), 'spec.checks', { unhealthyNodeConditions: [{ type: 'Ready', status: 'False', timeoutSeconds: INT32_OVER }] }),
      'spec.checks.unhealthyNodeConditions[0].timeoutSeconds',
    ],
    [
      'ExtensionConfig service port',
      withValue(extensionConfig(), 'spec.clientConfig.service.port', INT32_OVER),
      'spec.clientConfig.service.port',
    ],
    ['InMemoryMachine startupSeconds', withValue(inMemoryMachine(), 'spec.startupSeconds', INT32_OVER), 'spec.startupSeconds'],
  ])('refuses %s out of range with a 422 naming the field', (_name, obj, field) => {
    expectInvalid(obj, field);
  });

  it('refuses a clusterctl release series beyond int32', () => {
    const obj = { ...clusterctlMetadata(), releaseSeries: [{ major: INT32_OVER, minor: 0, contract: 'v1beta2' }] };
    expectInvalid(obj, 'releaseSeries[0].major');
  });

  it('words the error with the bound', () => {
    const error = rejectCreate(withValue(machineSet(), 'spec.replicas', INT32_OVER));
    expect(error.causes).toContainEqual({
      field: 'spec.replicas',
      reason: 'FieldValueInvalid',
      message: 'Invalid value: 2147483648: spec.replicas in body should be less than or equal to 2147483647',
    });
  });

  it.each<[string, object, string]>([
    ['MachineSet replicas', withValue(machineSet(), 'spec.replicas', INT32_MAX), 'spec.replicas'],
    ['MachineDeployment replicas', withValue(machineDeployment(), 'spec.replicas', INT32_MAX), 'spec.replicas'],
    ['KubeadmControlPlane replicas', withValue(kubeadmControlPlane(), 'spec.replicas', INT32_MAX), 'spec.replicas'],
    ['Machine minReadySeconds', withValue(machine(), 'spec.minReadySeconds', INT32_MAX), 'spec.minReadySeconds'],
    [
      'MachineHealthCheck nodeStartupTimeoutSeconds',
      withValue(machineHealthCheck(), 'spec.checks', { nodeStartupTimeoutSeconds: INT32_MAX }),
      'spec.checks.nodeStartupTimeoutSeconds',
    ],
    ['Cluster controlPlaneEndpoint port 65535', withValue(cluster(), 'spec.controlPlaneEndpoint', { host: 'h', port: 65_535 }), 'spec.controlPlaneEndpoint.port'],
  ])('accepts %s at the int32 maximum', (_name, obj, field) => {
    const admitted = admitCreate(obj, ctx);
    const value = field.split('.').reduce<unknown>((at, key) => (at as Record<string, unknown> | undefined)?.[key], admitted);
    expect(value).toBe(field.endsWith('port') ? 65_535 : INT32_MAX);
  });

  it('refuses replicas out of int32 on update too', () => {
    const old = admitCreate(machineDeployment(), ctx);
    const error = rejection(() => admitUpdate(withValue(machineDeployment(), 'spec.replicas', INT32_OVER), old, ctx));
    expect(error.code).toBe(422);
    expect(error.causes).toContainEqual(expect.objectContaining({ field: 'spec.replicas' }));
  });
});

describe('apiVersion format', () => {
  it.each<[string, object]>([
    ['"/v1" on a Secret', { ...secret(), apiVersion: '/v1' }],
    ['"/v1beta2" on a Machine', { ...machine(), apiVersion: '/v1beta2' }],
    ['"/"', { ...secret(), apiVersion: '/' }],
    ['a group without a version', { ...machine(), apiVersion: 'cluster.x-k8s.io/' }],
    ['two slashes', { ...machine(), apiVersion: 'cluster.x-k8s.io/v1beta2/x' }],
    ['an upper-case group', { ...machine(), apiVersion: 'Cluster.X-K8S.io/v1beta2' }],
    ['a group with a space', { ...machine(), apiVersion: 'cluster x-k8s.io/v1beta2' }],
    ['an upper-case version', { ...machine(), apiVersion: 'cluster.x-k8s.io/V1beta2' }],
    ['a version with a newline', { ...secret(), apiVersion: 'v1\n' }],
    ['a leading space', { ...secret(), apiVersion: ' v1' }],
    ['a 100k-character group', { ...machine(), apiVersion: `${'g'.repeat(100_000)}/v1beta2` }],
  ])('refuses %s with a 422 on apiVersion', (_name, obj) => {
    const error = rejectCreate(obj);
    expect(error).toBeInstanceOf(InvalidError);
    expect(error.causes).toEqual([expect.objectContaining({ field: 'apiVersion', reason: 'FieldValueInvalid' })]);
  });

  it('words the /v1 error with the value', () => {
    const error = rejectCreate({ ...secret(), apiVersion: '/v1' });
    expect(error.message).toBe(
      'Object is invalid: apiVersion: Invalid value: "/v1": the group must be non-empty: the core group is written as the version alone (e.g. "v1")',
    );
  });

  it('refuses it on update too', () => {
    const old = admitCreate(secret(), ctx);
    const error = rejection(() => admitUpdate({ ...secret(), apiVersion: '/v1' }, old, ctx));
    expect(error.code).toBe(422);
    expect(error.causes[0]?.field).toBe('apiVersion');
  });

  it.each<[string, object]>([
    ['v1 for the core group', secret()],
    ['a group and a served storage version', machine()],
    ['a group and a served older version', { ...machine(), apiVersion: 'cluster.x-k8s.io/v1beta1' }],
  ])('accepts %s', (_name, obj) => {
    expect(() => admitCreate(obj, ctx)).not.toThrow();
  });

  it.each<[string, object]>([
    ['a version the kind does not serve', { ...machine(), apiVersion: 'cluster.x-k8s.io/v1alpha4' }],
    ['a core version that is not served', { ...secret(), apiVersion: 'v2' }],
    ['an in-memory kind in v1beta1 (served in v1beta2 only)', { ...inMemoryMachine(), apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1' }],
  ])('answers NotFound naming apiVersion for %s', (_name, obj) => {
    const error = rejectCreate(obj);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.causes[0]?.field).toBe('apiVersion');
  });
});
