/**
 * Test vectors for `hooks.runtime.cluster.x-k8s.io/v1alpha1`, written from Cluster API v1.14's
 * hook types (clusterclass-runtime-sdk.md §5, api/runtime/hooks/v1alpha1/*_types.go): the
 * shapes a Cluster API client sends and a Cluster API extension answers must decode, unknown
 * fields are dropped as Go's encoding/json drops them, and what would be unsafe is refused.
 */

import { describe, expect, it } from 'vitest';
import {
  decodeHookRequest,
  decodeHookResponse,
  discoveryResponseSchema,
  encodeHookRequest,
  encodeHookResponse,
  type HookName,
  hookFromPathSegment,
  hookPath,
  validateDiscoveryResponse,
} from '../../../shared/contracts/hooks/index.js';

const CLUSTER = {
  metadata: { name: 'c1', namespace: 'default', labels: { 'cluster.x-k8s.io/cluster-name': 'c1', 'topology.cluster.x-k8s.io/owned': '' } },
  spec: {
    controlPlaneRef: { apiGroup: 'controlplane.cluster.x-k8s.io', kind: 'KubeadmControlPlane', name: 'c1-x7k2p' },
    topology: { classRef: { name: 'quick-start' }, version: 'v1.34.0', controlPlane: { replicas: 1 }, workers: { machineDeployments: [{ class: 'default-worker', name: 'md-0', replicas: 1 }] } },
  },
};

/** The worked example of the reference (§5), verbatim. */
const BEFORE_CLUSTER_UPGRADE = {
  kind: 'BeforeClusterUpgradeRequest',
  apiVersion: 'hooks.runtime.cluster.x-k8s.io/v1alpha1',
  settings: { extensionConfigName: 'test-extension' },
  cluster: CLUSTER,
  fromKubernetesVersion: 'v1.33.0',
  toKubernetesVersion: 'v1.34.0',
  controlPlaneUpgrades: [{ version: 'v1.34.0' }],
  workersUpgrades: [{ version: 'v1.34.0' }],
};

const AV = 'hooks.runtime.cluster.x-k8s.io/v1alpha1';

describe('requests Cluster API sends decode', () => {
  it.each<[HookName, Record<string, unknown>]>([
    ['BeforeClusterCreate', { apiVersion: AV, kind: 'BeforeClusterCreateRequest', cluster: CLUSTER }],
    ['AfterControlPlaneInitialized', { apiVersion: AV, kind: 'AfterControlPlaneInitializedRequest', cluster: CLUSTER }],
    ['BeforeClusterUpgrade', BEFORE_CLUSTER_UPGRADE],
    ['BeforeControlPlaneUpgrade', { ...BEFORE_CLUSTER_UPGRADE, kind: 'BeforeControlPlaneUpgradeRequest' }],
    ['BeforeWorkersUpgrade', { ...BEFORE_CLUSTER_UPGRADE, kind: 'BeforeWorkersUpgradeRequest' }],
    ['AfterControlPlaneUpgrade', { apiVersion: AV, kind: 'AfterControlPlaneUpgradeRequest', cluster: CLUSTER, kubernetesVersion: 'v1.34.0', controlPlaneUpgrades: [], workersUpgrades: [{ version: 'v1.34.0' }] }],
    ['AfterWorkersUpgrade', { apiVersion: AV, kind: 'AfterWorkersUpgradeRequest', cluster: CLUSTER, kubernetesVersion: 'v1.34.0' }],
    ['AfterClusterUpgrade', { apiVersion: AV, kind: 'AfterClusterUpgradeRequest', cluster: CLUSTER, kubernetesVersion: 'v1.34.0' }],
    ['BeforeClusterDelete', { apiVersion: AV, kind: 'BeforeClusterDeleteRequest', settings: {}, cluster: CLUSTER }],
    ['Discovery', { apiVersion: AV, kind: 'DiscoveryRequest' }],
    [
      'GeneratePatches',
      {
        apiVersion: AV,
        kind: 'GeneratePatchesRequest',
        settings: { a: 'b' },
        variables: [{ name: 'builtin', value: { cluster: { name: 'c1' } } }],
        items: [
          {
            uid: '7b7b0f5e-4f0d-4a8a-9f1a-2d6c3b1e0a11',
            holderReference: { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', namespace: 'default', name: 'c1', fieldPath: 'spec.infrastructureRef' },
            object: { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2', kind: 'DockerClusterTemplate', spec: { template: { spec: {} } } },
            variables: [{ name: 'imageRepository', value: 'registry.k8s.io' }],
          },
        ],
      },
    ],
    [
      'ValidateTopology',
      {
        apiVersion: AV,
        kind: 'ValidateTopologyRequest',
        variables: [],
        items: [{ holderReference: { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', namespace: 'default', name: 'c1', fieldPath: 'spec.infrastructureRef' }, object: {}, variables: [] }],
      },
    ],
  ])('%s', (hook, body) => {
    const decoded = decodeHookRequest(hook, body);
    expect(decoded).toMatchObject({ ok: true });
  });

  it('keeps every field of the embedded Cluster (extensions read any of them)', () => {
    const decoded = decodeHookRequest('BeforeClusterUpgrade', BEFORE_CLUSTER_UPGRADE);
    expect(decoded.ok && decoded.value.cluster).toEqual(CLUSTER);
  });

  it('drops unknown top-level fields as encoding/json does', () => {
    const decoded = decodeHookRequest('BeforeClusterCreate', { apiVersion: AV, kind: 'BeforeClusterCreateRequest', cluster: CLUSTER, futureField: { x: 1 } });
    expect(decoded.ok && 'futureField' in decoded.value).toBe(false);
  });

  it.each<[string, HookName, unknown, RegExp]>([
    ['a lifecycle request without a cluster', 'BeforeClusterCreate', { apiVersion: AV, kind: 'BeforeClusterCreateRequest' }, /at cluster/],
    ['a cluster without a name', 'BeforeClusterDelete', { cluster: { metadata: {} } }, /at cluster\.metadata\.name/],
    ['an upgrade request without versions', 'BeforeClusterUpgrade', { cluster: CLUSTER }, /fromKubernetesVersion/],
    ['the kind of another hook', 'BeforeClusterCreate', { kind: 'BeforeClusterDeleteRequest', cluster: CLUSTER }, /at kind/],
    ['settings that are not strings', 'BeforeClusterCreate', { cluster: CLUSTER, settings: { a: 1 } }, /settings\.a/],
    ['not an object', 'Discovery', [], /DiscoveryRequest is invalid/],
  ])('refuses %s', (_name, hook, body, message) => {
    const decoded = decodeHookRequest(hook, body);
    expect(decoded.ok).toBe(false);
    expect(!decoded.ok && decoded.message).toMatch(message);
  });
});

describe('responses extensions answer decode', () => {
  it.each<[string, HookName, unknown, Record<string, unknown>]>([
    ['block', 'BeforeClusterUpgrade', { status: 'Success', message: 'wait', retryAfterSeconds: 30 }, { status: 'Success', message: 'wait', retryAfterSeconds: 30 }],
    ['go', 'BeforeClusterUpgrade', { status: 'Success', retryAfterSeconds: 0 }, { status: 'Success', message: '', retryAfterSeconds: 0 }],
    ['fail', 'BeforeClusterDelete', { status: 'Failure', message: 'no' }, { status: 'Failure', message: 'no', retryAfterSeconds: 0 }],
    ['retryAfterSeconds absent is 0 (Go zero value)', 'BeforeClusterCreate', { status: 'Success' }, { status: 'Success', retryAfterSeconds: 0 }],
    ['unknown fields dropped', 'AfterClusterUpgrade', { kind: 'AfterClusterUpgradeResponse', status: 'Success', retryAfterSeconds: 0, extra: true }, { status: 'Success' }],
    ['a plain response has no retryAfterSeconds', 'AfterControlPlaneInitialized', { status: 'Success', retryAfterSeconds: 5 }, { status: 'Success', message: '' }],
    ['the largest int32', 'BeforeClusterCreate', { status: 'Success', retryAfterSeconds: 2147483647 }, { retryAfterSeconds: 2147483647 }],
    [
      'generated patches',
      'GeneratePatches',
      { status: 'Success', items: [{ uid: 'u1', patchType: 'JSONPatch', patch: Buffer.from('[{"op":"add","path":"/spec/x","value":1}]').toString('base64') }] },
      { status: 'Success' },
    ],
  ])('%s', (_name, hook, body, expected) => {
    const decoded = decodeHookResponse(hook, body);
    expect(decoded.ok).toBe(true);
    if (decoded.ok) expect(decoded.value).toMatchObject(expected);
    if (decoded.ok && hook === 'AfterControlPlaneInitialized') expect('retryAfterSeconds' in decoded.value).toBe(false);
  });

  it.each<[string, HookName, unknown]>([
    ['an unknown status (Go would call it a success)', 'BeforeClusterUpgrade', { status: 'Pending', retryAfterSeconds: 0 }],
    ['no status (Go would call it a success)', 'BeforeClusterUpgrade', { retryAfterSeconds: 0 }],
    ['a negative retryAfterSeconds', 'BeforeClusterCreate', { status: 'Success', retryAfterSeconds: -5 }],
    ['a retryAfterSeconds over int32 (Go fails to decode it)', 'BeforeClusterCreate', { status: 'Success', retryAfterSeconds: 2147483648 }],
    ['a fractional retryAfterSeconds', 'BeforeClusterCreate', { status: 'Success', retryAfterSeconds: 1.5 }],
    ['a string retryAfterSeconds', 'BeforeClusterCreate', { status: 'Success', retryAfterSeconds: '5' }],
    ['a patch that is not base64', 'GeneratePatches', { status: 'Success', items: [{ uid: 'u', patchType: 'JSONPatch', patch: '[{}]' }] }],
    ['an unknown patch type', 'GeneratePatches', { status: 'Success', items: [{ uid: 'u', patchType: 'StrategicMerge', patch: '' }] }],
    ['not an object', 'BeforeClusterCreate', 'Success'],
  ])('refuses %s', (_name, hook, body) => {
    expect(decodeHookResponse(hook, body).ok).toBe(false);
  });
});

describe('discovery responses are validated as Cluster API validates them', () => {
  const handler = (over: Record<string, unknown> = {}) => ({
    name: 'before-cluster-upgrade',
    requestHook: { apiVersion: AV, hook: 'BeforeClusterUpgrade' },
    ...over,
  });
  const validate = (handlers: unknown[]) => {
    const parsed = discoveryResponseSchema.parse({ status: 'Success', handlers });
    return validateDiscoveryResponse(parsed);
  };

  it('defaults timeoutSeconds to 10 and failurePolicy to Fail', () => {
    expect(validate([handler()])).toEqual({
      ok: true,
      handlers: [{ name: 'before-cluster-upgrade', requestHook: { apiVersion: AV, hook: 'BeforeClusterUpgrade' }, timeoutSeconds: 10, failurePolicy: 'Fail' }],
    });
  });

  it.each<[string, unknown[]]>([
    ['the test extension (every hook, kebab-case)', ['BeforeClusterCreate', 'AfterControlPlaneInitialized', 'BeforeClusterUpgrade', 'BeforeControlPlaneUpgrade', 'AfterControlPlaneUpgrade', 'BeforeWorkersUpgrade', 'AfterWorkersUpgrade', 'AfterClusterUpgrade', 'BeforeClusterDelete', 'GeneratePatches', 'ValidateTopology', 'DiscoverVariables'].map((hook) => handler({ name: hook.replace(/([a-z])([A-Z])/g, '$1-$2').toLowerCase(), requestHook: { apiVersion: AV, hook } }))],
    ['timeout 0 and 30, policy Ignore', [handler({ timeoutSeconds: 0 }), handler({ name: 'b', timeoutSeconds: 30, failurePolicy: 'Ignore' })]],
    ['hooks capless does not call yet but the catalog has', [handler({ requestHook: { apiVersion: AV, hook: 'GenerateUpgradePlan' } })]],
    ['no handlers at all', []],
  ])('accepts %s', (_name, handlers) => {
    expect(validate(handlers).ok).toBe(true);
  });

  it.each<[string, unknown[], RegExp]>([
    ['duplicate names', [handler(), handler()], /duplicate name for handler before-cluster-upgrade found/],
    ['a name that is not a DNS-1123 label', [handler({ name: 'Before.Upgrade' })], /handler name Before\.Upgrade is not valid/],
    ['a timeout over 30 s', [handler({ timeoutSeconds: 31 })], /timeoutSeconds 31 must be between 0 and 30/],
    ['a negative timeout', [handler({ timeoutSeconds: -1 })], /timeoutSeconds -1 must be between 0 and 30/],
    ['an unknown failurePolicy', [handler({ failurePolicy: 'Retry' })], /failurePolicy Retry must equal "Ignore" or "Fail"/],
    ['a hook outside the catalog', [handler({ requestHook: { apiVersion: AV, hook: 'BeforeMachineCreate' } })], /is not in the Runtime SDK catalog/],
    ['a hook of another version', [handler({ requestHook: { apiVersion: 'hooks.runtime.cluster.x-k8s.io/v1beta1', hook: 'BeforeClusterUpgrade' } })], /is not in the Runtime SDK catalog/],
  ])('rejects %s', (_name, handlers, message) => {
    const result = validate(handlers);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.errors.join('; ')).toMatch(message);
  });
});

describe('paths and encoding', () => {
  it.each<[HookName, string | undefined, string]>([
    ['Discovery', undefined, '/hooks.runtime.cluster.x-k8s.io/v1alpha1/discovery'],
    ['BeforeClusterUpgrade', 'before-cluster-upgrade', '/hooks.runtime.cluster.x-k8s.io/v1alpha1/beforeclusterupgrade/before-cluster-upgrade'],
    ['AfterControlPlaneInitialized', 'x', '/hooks.runtime.cluster.x-k8s.io/v1alpha1/aftercontrolplaneinitialized/x'],
  ])('%s %s is served on %s', (hook, name, path) => {
    expect(hookPath(hook, name)).toBe(path);
    expect(hookFromPathSegment(path.split('/')[3] ?? '')).toBe(hook);
  });

  it('a retry response always carries retryAfterSeconds and drops an empty message', () => {
    expect(encodeHookResponse('BeforeClusterCreate', { status: 'Success', message: '' })).toEqual({
      apiVersion: AV,
      kind: 'BeforeClusterCreateResponse',
      status: 'Success',
      retryAfterSeconds: 0,
    });
    expect(encodeHookResponse('AfterControlPlaneInitialized', { status: 'Failure', message: 'x', retryAfterSeconds: 3 })).toEqual({
      apiVersion: AV,
      kind: 'AfterControlPlaneInitializedResponse',
      status: 'Failure',
      message: 'x',
    });
  });

  it('a request is sent with its apiVersion and kind', () => {
    expect(encodeHookRequest('BeforeClusterDelete', { kind: 'Wrong', cluster: CLUSTER })).toEqual({ apiVersion: AV, kind: 'BeforeClusterDeleteRequest', cluster: CLUSTER });
  });
});
