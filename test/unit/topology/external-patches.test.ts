/**
 * External ClusterClass patches (Cluster API patches/engine.go): GeneratePatches answers applied
 * in order with the inline patches (JSONPatch and JSONMergePatch, base64 on the wire),
 * ValidateTopology asked with the patched items, and every bad answer a TopologyPatchError
 * naming the patch. The ExtensionCaller is scripted; the HTTPS client itself is tested in
 * test/integration/runtime/extension-config-discovery.test.ts.
 */

import { describe, expect, it } from 'vitest';
import { applyClassPatches } from '../../../functions/reconcile/topology/cluster/external-patches.js';
import { type PatchItem, TopologyPatchError } from '../../../functions/reconcile/topology/cluster/patches.js';
import type { ClusterClassPatch } from '../../../shared/contracts/schemas/core/cluster-class.js';
import type { ExtensionCaller, NamedCallResult, NamedHook } from '../../../shared/ports/runtime-extensions.js';

interface Call {
  name: string;
  hook: NamedHook;
  namespace: string;
  body: Record<string, unknown>;
}

function scripted(answer: (call: Call) => NamedCallResult): ExtensionCaller & { calls: Call[] } {
  const calls: Call[] = [];
  return {
    calls,
    callExtension: async (name, hook, namespace, body) => {
      const call = { name, hook, namespace, body: structuredClone(body) };
      calls.push(call);
      return answer(call);
    },
  };
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64');
const success = (items: unknown[]): NamedCallResult => ({ status: 'Success', response: { status: 'Success', items } });

const items: PatchItem[] = [
  {
    role: 'InfrastructureCluster',
    holder: { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', name: 'c1', fieldPath: 'spec.infrastructureRef' },
    description: 'infrastructure cluster template',
    template: { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2', kind: 'DevClusterTemplate', spec: { template: { spec: { a: 1 } } } },
    variables: { region: 'eu', builtin: { cluster: { name: 'c1' } } },
  },
];

const inline: ClusterClassPatch = {
  name: 'inline-b',
  definitions: [
    {
      selector: { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2', kind: 'DevClusterTemplate', matchResources: { infrastructureCluster: true } },
      jsonPatches: [{ op: 'add', path: '/spec/template/spec/b', value: 'inline' }],
    },
  ],
};
const external = (name: string, ext: Record<string, unknown>): ClusterClassPatch => ({ name, external: ext });

describe('external patches', () => {
  it.each<[string, NamedCallResult, Record<string, unknown>]>([
    ['a JSONPatch', success([{ uid: '0', patchType: 'JSONPatch', patch: b64([{ op: 'replace', path: '/spec/template/spec/b', value: 'external' }]) }]), { a: 1, b: 'external' }],
    ['a JSONMergePatch', success([{ uid: '0', patchType: 'JSONMergePatch', patch: b64({ spec: { template: { spec: { a: null, c: true } } } }) }]), { b: 'inline', c: true }],
    ['no items (nothing to change)', success([]), { a: 1, b: 'inline' }],
  ])('runs after the inline patch before it and applies %s', async (_name, answer, spec) => {
    const caller = scripted(() => answer);
    const patched = await applyClassPatches([inline, external('ext', { generatePatchesExtension: 'gen.ext', settings: { k: 'v' } })], items, { caller, namespace: 'team-a' });
    expect(patched[0]?.template).toEqual({ ...items[0]?.template, spec: { template: { spec } } });
    expect(caller.calls).toHaveLength(1);
    expect(caller.calls[0]).toMatchObject({ name: 'gen.ext', hook: 'GeneratePatches', namespace: 'team-a' });
    expect(caller.calls[0]?.body).toEqual({
      settings: { k: 'v' },
      variables: [],
      items: [
        {
          uid: '0',
          holderReference: { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', namespace: '', name: 'c1', fieldPath: 'spec.infrastructureRef' },
          object: { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2', kind: 'DevClusterTemplate', spec: { template: { spec: { a: 1, b: 'inline' } } } },
          variables: [
            { name: 'region', value: 'eu' },
            { name: 'builtin', value: { cluster: { name: 'c1' } } },
          ],
        },
      ],
    });
  });

  it.each<[string, NamedCallResult, RegExp]>([
    ['a Failure answer', { status: 'Failure', message: 'boom' }, /patch "ext" \(external gen\.ext\) failed: boom/],
    ['an unknown uid', success([{ uid: '7', patchType: 'JSONPatch', patch: b64([]) }]), /unknown item uid "7"/],
    ['a patch that is not JSON', success([{ uid: '0', patchType: 'JSONPatch', patch: Buffer.from('nope').toString('base64') }]), /not JSON/],
    ['a JSONPatch that is not a list', success([{ uid: '0', patchType: 'JSONPatch', patch: b64({ op: 'add' }) }]), /list of operations/],
    ['an unsupported operation', success([{ uid: '0', patchType: 'JSONPatch', patch: b64([{ op: 'move', from: '/a', path: '/b' }]) }]), /unsupported JSON patch operation/],
    ['an unknown patchType', success([{ uid: '0', patchType: 'StrategicMerge', patch: b64({}) }]), /invalid GeneratePatches response/],
  ])('%s is a TopologyPatchError naming the patch', async (_name, answer, message) => {
    const caller = scripted(() => answer);
    const run = applyClassPatches([external('ext', { generatePatchesExtension: 'gen.ext' })], items, { caller, namespace: 'default' });
    await expect(run).rejects.toThrow(TopologyPatchError);
    await expect(applyClassPatches([external('ext', { generatePatchesExtension: 'gen.ext' })], items, { caller, namespace: 'default' })).rejects.toThrow(message);
  });

  it('asks ValidateTopology with the patched items after every patch; a Failure rejects the topology', async () => {
    const caller = scripted((call) => (call.hook === 'ValidateTopology' ? { status: 'Failure', message: 'region not allowed' } : success([])));
    const run = applyClassPatches([external('check', { validateTopologyExtension: 'validate.ext' }), inline], items, { caller, namespace: 'default' });
    await expect(run).rejects.toThrow(/patch "check" \(external validate\.ext\) rejected the topology: region not allowed/);
    expect(caller.calls.map((c) => c.hook)).toEqual(['ValidateTopology']);
    const sent = caller.calls[0]?.body.items;
    expect(Array.isArray(sent) ? sent[0] : undefined).toMatchObject({ object: { spec: { template: { spec: { a: 1, b: 'inline' } } } } });
  });

  it('an external patch without a Runtime SDK caller fails instead of being skipped', async () => {
    await expect(applyClassPatches([external('ext', { generatePatchesExtension: 'gen.ext' })], items, { caller: undefined, namespace: 'default' })).rejects.toThrow(/no Runtime SDK client/);
  });

  it('enabledIf false on every item skips the call', async () => {
    const caller = scripted(() => success([]));
    await applyClassPatches([{ name: 'off', enabledIf: '{{ if eq .region "us" }}true{{ end }}', external: { generatePatchesExtension: 'gen.ext' } }], items, { caller, namespace: 'default' });
    expect(caller.calls).toEqual([]);
  });
});
