/**
 * DiscoverVariables on ClusterClass reconcile (Cluster API's reconcileVariables): every external
 * patch with `discoverVariablesExtension` is asked (with its settings), what it defines lands in
 * `status.variables` with `from: <patch name>` beside the inline definitions, sorted by name; a
 * failed discovery is VariablesReady=False (VariableDiscoveryFailed) naming the patch and keeps
 * the previous variables; a Cluster may then set a discovered variable, validated by its schema.
 */

import { describe, expect, it } from 'vitest';
import { runReconcile } from '../../../functions/reconcile/engine/skeleton/run-reconcile.js';
import { clusterClassReconciler } from '../../../functions/reconcile/topology/clusterclass/reconciler.js';
import { admitCreate } from '../../../shared/contracts/admission/admit.js';
import { conditionsOf, findCondition } from '../../../shared/contracts/conditions.js';
import { isRecord } from '../../../shared/contracts/json.js';
import { keyOf, type KubeObject, type StoredObject } from '../../../shared/contracts/object.js';
import { admitClusterTopology } from '../../../shared/contracts/topology/cluster-topology-admission.js';
import { EXTENSION_CALLER_PORT, type ExtensionCaller, type NamedCallResult } from '../../../shared/ports/runtime-extensions.js';
import { MemoryObjectStore } from '../../../shared/store/memory-store.js';
import { ctx } from '../../contracts/admission-fixtures.js';
import { testContext } from '../../support/reconcile-context.js';
import { classObjects, NS } from '../../support/topology-fixtures.js';

const stringVar = (name: string, extra: Record<string, unknown> = {}) => ({ name, required: false, schema: { openAPIV3Schema: { type: 'string', ...extra } } });
const answer = (variables: unknown[]): NamedCallResult => ({ status: 'Success', response: { status: 'Success', variables } });

interface Call {
  name: string;
  hook: string;
  namespace: string;
  body: Record<string, unknown>;
}

function caller(answers: Record<string, NamedCallResult>): ExtensionCaller & { calls: Call[] } {
  const calls: Call[] = [];
  return {
    calls,
    callExtension: async (name, hook, namespace, body) => {
      calls.push({ name, hook, namespace, body });
      return answers[name] ?? { status: 'Failure', message: `no handler "${name}"` };
    },
  };
}

const EXTERNAL = [
  { name: 'proxy', external: { discoverVariablesExtension: 'vars.ext', settings: { flavour: 'a' } } },
  { name: 'registry', external: { discoverVariablesExtension: 'more.ext' } },
];

async function classWith(patches: unknown[], store = new MemoryObjectStore()): Promise<{ store: MemoryObjectStore; cc: StoredObject }> {
  for (const object of classObjects()) {
    const withPatches = object.kind === 'ClusterClass' && isRecord(object.spec) ? { ...object, spec: { ...object.spec, patches: [...(Array.isArray(object.spec.patches) ? object.spec.patches : []), ...patches] } } : object;
    await store.create(admitCreate(withPatches, ctx));
  }
  const cc = await store.get({ group: 'cluster.x-k8s.io', kind: 'ClusterClass', namespace: NS, name: 'cc' });
  if (!cc) throw new Error('no class');
  return { store, cc };
}

async function reconcile(store: MemoryObjectStore, cc: StoredObject, extensions?: ExtensionCaller) {
  const result = await runReconcile(clusterClassReconciler, testContext({ store, providers: extensions ? { [EXTENSION_CALLER_PORT]: extensions } : {} }), keyOf(cc));
  const after = await store.get(keyOf(cc));
  return { result, after, ready: findCondition(conditionsOf(after?.status), 'VariablesReady'), variables: isRecord(after?.status) ? after.status.variables : undefined };
}

describe('DiscoverVariables on ClusterClass reconcile', () => {
  it("asks each external patch's extension with its settings and records the variables from the patch, sorted by name beside the inline ones", async () => {
    const { store, cc } = await classWith(EXTERNAL);
    const extensions = caller({ 'vars.ext': answer([stringVar('proxy'), stringVar('noProxy')]), 'more.ext': answer([{ ...stringVar('mirror'), required: true }]) });
    const { ready, variables } = await reconcile(store, cc, extensions);
    expect(extensions.calls).toEqual([
      { name: 'vars.ext', hook: 'DiscoverVariables', namespace: NS, body: { settings: { flavour: 'a' } } },
      { name: 'more.ext', hook: 'DiscoverVariables', namespace: NS, body: { settings: {} } },
    ]);
    expect(ready).toMatchObject({ status: 'True', reason: 'VariablesReady' });
    expect(variables).toEqual([
      { name: 'mirror', definitionsConflict: false, definitions: [{ from: 'registry', required: true, schema: { openAPIV3Schema: { type: 'string' } } }] },
      { name: 'noProxy', definitionsConflict: false, definitions: [{ from: 'proxy', required: false, schema: { openAPIV3Schema: { type: 'string' } } }] },
      { name: 'proxy', definitionsConflict: false, definitions: [{ from: 'proxy', required: false, schema: { openAPIV3Schema: { type: 'string' } } }] },
      { name: 'tag', definitionsConflict: false, definitions: [{ from: 'inline', required: false, schema: { openAPIV3Schema: { type: 'string', default: 'v1' } } }] },
    ]);
  });

  it('the same variable from two patches with one schema is one variable with two definitions', async () => {
    const { store, cc } = await classWith(EXTERNAL);
    const { ready, variables } = await reconcile(store, cc, caller({ 'vars.ext': answer([stringVar('proxy')]), 'more.ext': answer([stringVar('proxy')]) }));
    expect(ready?.status).toBe('True');
    expect(Array.isArray(variables) && variables.find((v: unknown) => isRecord(v) && v.name === 'proxy')).toMatchObject({ definitionsConflict: false, definitions: [{ from: 'proxy' }, { from: 'registry' }] });
  });

  it.each<[string, Record<string, NamedCallResult>, string]>([
    ['a call that fails', { 'more.ext': answer([]) }, 'failed to call DiscoverVariables for patch proxy: no handler "vars.ext"'],
    ['a Failure answer', { 'vars.ext': { status: 'Failure', message: 'extension says no' }, 'more.ext': answer([]) }, 'failed to call DiscoverVariables for patch proxy: extension says no'],
    ['a name twice in one answer', { 'vars.ext': answer([stringVar('proxy'), stringVar('proxy')]), 'more.ext': answer([]) }, 'variable "proxy" is defined multiple times in variable discovery response from patch "proxy"'],
    ['a schema that cannot be used', { 'vars.ext': answer([{ name: 'proxy', required: false, schema: { openAPIV3Schema: { type: 'no-such-type' } } }]), 'more.ext': answer([]) }, 'proxy.variables[proxy].schema.openAPIV3Schema'],
    ['a response that does not decode', { 'vars.ext': { status: 'Success', response: { variables: [{ required: 'yes' }] } }, 'more.ext': answer([]) }, 'patch proxy answered DiscoverVariables with an invalid response'],
    ['conflicting definitions across patches', { 'vars.ext': answer([stringVar('proxy')]), 'more.ext': answer([{ ...stringVar('proxy'), required: true }]) }, 'the following variables have conflicting schemas: proxy'],
    ['a conflict with an inline variable', { 'vars.ext': answer([{ name: 'tag', required: false, schema: { openAPIV3Schema: { type: 'integer' } } }]), 'more.ext': answer([]) }, 'the following variables have conflicting schemas: tag'],
  ])('%s: VariablesReady=False (VariableDiscoveryFailed) naming why, retried', async (_name, answers, message) => {
    const { store, cc } = await classWith(EXTERNAL);
    const { ready, result } = await reconcile(store, cc, caller(answers));
    expect(ready).toMatchObject({ status: 'False', reason: 'VariableDiscoveryFailed' });
    expect(ready?.message).toMatch(/^VariableDiscovery failed: /);
    expect(ready?.message).toContain(message);
    expect(result.requeueAfterSeconds).toBe(20);
  });

  it('without a Runtime SDK client an external patch fails discovery, never skipped', async () => {
    const { store, cc } = await classWith(EXTERNAL.slice(0, 1));
    const { ready } = await reconcile(store, cc);
    expect(ready).toMatchObject({ status: 'False', reason: 'VariableDiscoveryFailed', message: 'VariableDiscovery failed: failed to call DiscoverVariables for patch proxy: no Runtime SDK client is configured' });
  });

  it('a failed discovery keeps the variables discovered before', async () => {
    const { store, cc } = await classWith(EXTERNAL.slice(0, 1));
    const first = await reconcile(store, cc, caller({ 'vars.ext': answer([stringVar('proxy')]) }));
    const second = await reconcile(store, cc, caller({}));
    expect(second.ready?.status).toBe('False');
    expect(second.variables).toEqual(first.variables);
  });

  it('a Cluster may set a discovered variable, checked against its schema; unknown names are still refused', async () => {
    const { store, cc } = await classWith(EXTERNAL.slice(0, 1));
    await reconcile(store, cc, caller({ 'vars.ext': answer([stringVar('proxy', { maxLength: 5 })]) }));
    const readClass = async (namespace: string, name: string) => store.get({ group: 'cluster.x-k8s.io', kind: 'ClusterClass', namespace, name });
    const cluster = (variables: unknown[]): KubeObject => ({
      apiVersion: 'cluster.x-k8s.io/v1beta2',
      kind: 'Cluster',
      metadata: { name: 'c1', namespace: NS },
      spec: { topology: { classRef: { name: 'cc' }, version: 'v1.33.0', controlPlane: { replicas: 1 }, variables } },
    });
    const admitted = await admitClusterTopology(cluster([{ name: 'proxy', value: 'http' }]), undefined, readClass);
    expect(admitted.spec?.topology).toMatchObject({ variables: expect.arrayContaining([{ name: 'proxy', value: 'http' }]) });
    await expect(admitClusterTopology(cluster([{ name: 'proxy', value: 'far-too-long' }]), undefined, readClass)).rejects.toThrow(/variables\[0\]\.value/);
    await expect(admitClusterTopology(cluster([{ name: 'nope', value: 'x' }]), undefined, readClass)).rejects.toThrow(/not defined in the ClusterClass/);
  });
});
