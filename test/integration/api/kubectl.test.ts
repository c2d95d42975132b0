import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { isRecord, stringAt } from '../../../shared/contracts/json.js';
import { CLUSTER_SCOPE_NAMESPACE } from '../../../shared/contracts/object.js';
import { type TestApi, startTestApi } from '../../support/api-server.js';

/**
 * The real kubectl against the management API, once per binary: `kubectl` on PATH and Debian's
 * `kubernetes-client` package unpacked into `.tools/kubernetes-client` by
 * scripts/install-system-deps.sh (it cannot be installed beside another kubectl). `KUBECTL`
 * picks one binary instead. Each binary's version goes to the test output.
 */
const DEBIAN_KUBECTL = resolve(import.meta.dirname, '../../../.tools/kubernetes-client/usr/bin/kubectl');
const BINARIES = process.env.KUBECTL ? [process.env.KUBECTL] : ['kubectl', ...(existsSync(DEBIAN_KUBECTL) ? [DEBIAN_KUBECTL] : [])];
const run = promisify(execFile);
const SAMPLE = resolve(import.meta.dirname, '../../fixtures/simple-cluster.yaml');
const MD_KEY = { group: 'cluster.x-k8s.io', kind: 'MachineDeployment', namespace: 'default', name: 'worker-md-0' };
const KCP_KEY = { group: 'controlplane.cluster.x-k8s.io', kind: 'KubeadmControlPlane', namespace: 'default', name: 'controlplane' };

describe.each(BINARIES)('kubectl (%s) against the capless API', (KUBECTL) => {
  let api: TestApi;
  let home: string;

  async function kubectl(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    try {
      const { stdout, stderr } = await run(KUBECTL, args, {
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, KUBECONFIG: api.kubeconfigPath },
        timeout: 60_000,
      });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const failed = isRecord(error) ? error : {};
      return { code: typeof failed.code === 'number' ? failed.code : 1, stdout: String(failed.stdout ?? ''), stderr: String(failed.stderr ?? error) };
    }
  }

  beforeAll(async () => {
    api = await startTestApi();
    home = await mkdtemp(join(tmpdir(), 'capless-kubectl-home-'));
  });
  afterAll(async () => {
    await api.close();
    await rm(home, { recursive: true, force: true });
  });

  it('reports its version and reads the server version', async () => {
    const version = await kubectl('version', '-o', 'json');
    expect(version.stderr).toBe('');
    const doc: unknown = JSON.parse(version.stdout);
    process.stdout.write(`kubectl client ${stringAt(doc, 'clientVersion', 'gitVersion')} (${KUBECTL}); server ${stringAt(doc, 'serverVersion', 'gitVersion')}\n`);
    expect(stringAt(doc, 'serverVersion', 'gitVersion')).toMatch(/capless/);
  });

  it('get clusters.cluster.x-k8s.io -A on an empty store', async () => {
    const result = await kubectl('get', 'clusters.cluster.x-k8s.io', '-A');
    expect(result).toMatchObject({ code: 0, stdout: '', stderr: 'No resources found\n' });
  });

  it('apply -f the upstream sample creates every object', async () => {
    const result = await kubectl('apply', '-f', SAMPLE);
    expect(result.stderr).toBe('');
    expect(result.stdout.trim().split('\n')).toEqual([
      'cluster.cluster.x-k8s.io/my-cluster created',
      'dockercluster.infrastructure.cluster.x-k8s.io/my-cluster created',
      'kubeadmcontrolplane.controlplane.cluster.x-k8s.io/controlplane created',
      'dockermachinetemplate.infrastructure.cluster.x-k8s.io/controlplane created',
      'machinedeployment.cluster.x-k8s.io/worker-md-0 created',
      'dockermachinetemplate.infrastructure.cluster.x-k8s.io/worker created',
      'kubeadmconfigtemplate.bootstrap.cluster.x-k8s.io/worker created',
    ]);
    const cluster = await api.store.get({ group: 'cluster.x-k8s.io', kind: 'Cluster', namespace: 'default', name: 'my-cluster' });
    expect(cluster?.metadata.annotations?.['kubectl.kubernetes.io/last-applied-configuration']).toContain('"name":"my-cluster"');
  });

  it('apply again is unchanged; an edited manifest is patched (client-side apply)', async () => {
    const again = await kubectl('apply', '-f', SAMPLE);
    expect(again.stdout).not.toMatch(/created|configured/);
    const edited = join(home, 'edited.yaml');
    const { readFile } = await import('node:fs/promises');
    await writeFile(edited, (await readFile(SAMPLE, 'utf8')).replace('replicas: 1\n  version', 'replicas: 3\n  version'));
    const patched = await kubectl('apply', '-f', edited);
    expect(patched.stderr).toBe('');
    expect(patched.stdout).toContain('kubeadmcontrolplane.controlplane.cluster.x-k8s.io/controlplane configured');
    const kcp = await api.store.get({ group: 'controlplane.cluster.x-k8s.io', kind: 'KubeadmControlPlane', namespace: 'default', name: 'controlplane' });
    expect(kcp?.spec?.replicas).toBe(3);
    expect(kcp?.metadata.generation).toBe(2);
  });

  it("get lists with short names and across namespaces, in Cluster API's printer columns (Table responses)", async () => {
    const header = (stdout: string) => stdout.split('\n')[0]?.trim().split(/\s{2,}/);
    const clusters = await kubectl('get', 'clusters.cluster.x-k8s.io', '-A');
    expect(header(clusters.stdout)).toEqual(['NAMESPACE', 'NAME', 'CLUSTERCLASS', 'AVAILABLE', 'CP DESIRED', 'CP AVAILABLE', 'CP UP-TO-DATE', 'W DESIRED', 'W AVAILABLE', 'W UP-TO-DATE', 'PHASE', 'AGE', 'VERSION']);
    expect(clusters.stdout.split('\n')[1]).toMatch(/^default\s+my-cluster\s/);
    const kcp = await kubectl('get', 'kcp');
    expect(header(kcp.stdout)).toEqual(['NAME', 'CLUSTER', 'AVAILABLE', 'DESIRED', 'CURRENT', 'READY', 'AVAILABLE', 'UP-TO-DATE', 'INITIALIZED', 'AGE', 'VERSION']);
    expect(kcp.stdout.split('\n')[1]).toMatch(/^controlplane\s/);
    const md = await kubectl('get', 'md', 'worker-md-0');
    expect(header(md.stdout)).toEqual(['NAME', 'CLUSTER', 'AVAILABLE', 'DESIRED', 'CURRENT', 'READY', 'AVAILABLE', 'UP-TO-DATE', 'PHASE', 'AGE', 'VERSION']);
    expect(md.stdout.split('\n')[1]).toMatch(/^worker-md-0\s+my-cluster\s/);
  });

  it('get machinedeployments.cluster.x-k8s.io -o yaml returns the stored objects', async () => {
    const result = await kubectl('get', 'machinedeployments.cluster.x-k8s.io', '-o', 'yaml');
    const list: unknown = parse(result.stdout);
    const items = isRecord(list) && Array.isArray(list.items) ? list.items : [];
    expect(items.map((i) => stringAt(i, 'metadata', 'name'))).toEqual(['worker-md-0']);
    expect(stringAt(items[0], 'metadata', 'uid')).toMatch(/./);
    expect((await kubectl('get', 'machines.cluster.x-k8s.io', '-o', 'yaml')).stdout).toMatch(/^apiVersion: v1\nitems: \[\]\nkind: List/);
  });

  it.each([
    ['a MachineDeployment (a merge patch of its Scale)', ['scale', 'md', 'worker-md-0', '--replicas=2'], 'machinedeployment.cluster.x-k8s.io/worker-md-0 scaled', MD_KEY, 2],
    ['with --current-replicas (GET then PUT of the Scale)', ['scale', 'md', 'worker-md-0', '--current-replicas=2', '--replicas=4'], 'machinedeployment.cluster.x-k8s.io/worker-md-0 scaled', MD_KEY, 4],
    ['a KubeadmControlPlane', ['scale', 'kcp', 'controlplane', '--replicas=5'], 'kubeadmcontrolplane.controlplane.cluster.x-k8s.io/controlplane scaled', KCP_KEY, 5],
  ])('scale %s through the scale subresource', async (_what, args, output, key, replicas) => {
    const result = await kubectl(...args);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout.trim()).toBe(output);
    expect((await api.store.get(key))?.spec?.replicas).toBe(replicas);
  });

  it.each([
    ['a stale --current-replicas', ['scale', 'md', 'worker-md-0', '--current-replicas=9', '--replicas=1'], /Expected replicas to be 9, was 4/],
    ['an even control plane with stacked etcd', ['scale', 'kcp', 'controlplane', '--replicas=4'], /is invalid: spec\.replicas: Invalid value: 4: cannot be an even number when etcd is stacked/],
  ])('scale refuses %s and changes nothing', async (_what, args, message) => {
    const result = await kubectl(...args);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(message);
    expect((await api.store.get(MD_KEY))?.spec?.replicas).toBe(4);
    expect((await api.store.get(KCP_KEY))?.spec?.replicas).toBe(5);
  });

  it('apply --server-side takes over the objects, a later scale is its conflict, --force-conflicts resolves it', async () => {
    const applied = await kubectl('apply', '--server-side', '-f', SAMPLE);
    expect(applied).toMatchObject({ code: 0, stderr: '' });
    expect(applied.stdout).toContain('machinedeployment.cluster.x-k8s.io/worker-md-0 serverside-applied');
    expect((await api.store.get(MD_KEY))?.spec?.replicas).toBe(1);
    // kubectl 1.26 and later also apply the client-side apply annotation they find, as manager kubectl-last-applied.
    const entries = (await api.store.get(MD_KEY))?.metadata.managedFields ?? [];
    expect(entries[0]).toMatchObject({ manager: 'kubectl', operation: 'Apply', fieldsV1: { 'f:spec': { 'f:replicas': {} } } });
    expect(entries.slice(1)).toEqual(entries.length > 1 ? [expect.objectContaining({ manager: 'kubectl-last-applied', operation: 'Apply' })] : []);
    expect((await kubectl('scale', 'md', 'worker-md-0', '--replicas=2')).code).toBe(0);
    const conflict = await kubectl('apply', '--server-side', '-f', SAMPLE);
    expect(conflict.code).not.toBe(0);
    expect(conflict.stderr).toMatch(/Apply failed with 1 conflict: conflict with "kubectl" with subresource "scale" using cluster\.x-k8s\.io\/v1beta2: \.spec\.replicas/);
    expect((await api.store.get(MD_KEY))?.spec?.replicas).toBe(2);
    const forced = await kubectl('apply', '--server-side', '--force-conflicts', '-f', SAMPLE);
    expect(forced).toMatchObject({ code: 0, stderr: '' });
    expect((await api.store.get(MD_KEY))?.spec?.replicas).toBe(1);
  });

  it.each([
    [['auth', 'can-i', 'create', 'clusters.cluster.x-k8s.io'], 0, 'yes'],
    [['auth', 'can-i', 'patch', 'machinedeployments.cluster.x-k8s.io', '--subresource=scale'], 0, 'yes'],
    [['auth', 'can-i', 'get', 'secrets'], 0, 'yes'],
    [['auth', 'can-i', 'create', 'machinepools.cluster.x-k8s.io'], 1, 'no - capless: create is not allowed on machinepools.cluster.x-k8s.io'],
  ])('%j answers from the server', async (args, code, answer) => {
    const result = await kubectl(...args);
    expect(result.code).toBe(code);
    expect(result.stdout.trim()).toBe(answer);
  });

  it('auth can-i --list prints the served resources with their verbs', async () => {
    const result = await kubectl('auth', 'can-i', '--list');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^clusters\.cluster\.x-k8s\.io\s+\[\]\s+\[\]\s+\[get list watch create update patch delete\]$/m);
    expect(result.stdout).toMatch(/^machinepools\.cluster\.x-k8s\.io\s+\[\]\s+\[\]\s+\[get list watch\]$/m);
  });

  it("auth whoami names the token's principal (kubectl 1.27 and later)", async (context) => {
    const minor = Number(/"minor":\s*"(\d+)/.exec((await kubectl('version', '--client', '-o', 'json')).stdout)?.[1] ?? '0');
    if (minor < 27) context.skip(`kubectl 1.${minor} has no auth whoami`);
    const result = await kubectl('auth', 'whoami');
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toMatch(/^Username\s+test-admin\nGroups\s+\[system:authenticated\]$/m);
  });

  it('surfaces server errors as kubectl errors', async () => {
    const missing = await kubectl('get', 'cluster.cluster.x-k8s.io', 'nope');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('Error from server (NotFound): clusters.cluster.x-k8s.io "nope" not found');
  });

  it.each([
    [
      'secret generic',
      ['create', 'secret', 'generic', 'creds', '--from-literal=token=s3cret'],
      'secret/creds created',
      { group: '', kind: 'Secret', namespace: 'default', name: 'creds' },
      { data: { token: Buffer.from('s3cret').toString('base64') }, type: 'Opaque' },
    ],
    ['configmap', ['create', 'configmap', 'addon', '--from-literal=a=b', '--from-literal=empty='], 'configmap/addon created', { group: '', kind: 'ConfigMap', namespace: 'default', name: 'addon' }, { data: { a: 'b', empty: '' } }],
    ['namespace', ['create', 'namespace', 'team-a'], 'namespace/team-a created', { group: '', kind: 'Namespace', namespace: CLUSTER_SCOPE_NAMESPACE, name: 'team-a' }, { status: { phase: 'Active' } }],
  ])('create %s: the typed command sends protobuf; stored as sent', async (_what, args, output, key, stored) => {
    const result = await kubectl(...args);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout.trim()).toBe(output);
    expect(await api.store.get(key)).toMatchObject(stored);
  });

  it('get namespaces prints the Status column', async () => {
    const result = await kubectl('get', 'namespaces');
    expect(result.stdout).toMatch(/^NAME\s+STATUS\s+AGE\n(.*\n)*team-a\s+Active\s/);
  });

  it.each([
    ['an unknown field', { clusterNetwork: { serviceDomain: 'cluster.local', bogus: true } }, 'Cluster.spec.clusterNetwork', 'unknown field "bogus"', 'spec.clusterNetwork.bogus'],
    ['a field of the wrong type', { clusterNetwork: { apiServerPort: 'six' } }, 'Cluster.spec.clusterNetwork.apiServerPort', 'invalid type', 'spec.clusterNetwork.apiServerPort'],
  ])('create refuses %s: kubectl before 1.27 from the OpenAPI v2 schema, later ones from the server', async (_name, spec, at, problem, serverField) => {
    const manifest = join(home, 'refused.yaml');
    await writeFile(manifest, JSON.stringify({ apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', metadata: { name: 'refused', namespace: 'default' }, spec }));
    const minor = Number(/"minor":\s*"(\d+)/.exec((await kubectl('version', '--client', '-o', 'json')).stdout)?.[1] ?? '0');
    const result = await kubectl('create', '-f', manifest);
    expect(result.code).toBe(1);
    if (minor < 27) expect(result.stderr).toContain(`ValidationError(${at}): ${problem}`);
    else expect(result.stderr).toContain(`The Cluster "refused" is invalid: ${serverField}:`);
    expect(await api.store.get({ group: 'cluster.x-k8s.io', kind: 'Cluster', namespace: 'default', name: 'refused' })).toBeUndefined();
  });

  it('delete -f removes everything', async () => {
    const result = await kubectl('delete', '-f', SAMPLE);
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('cluster.cluster.x-k8s.io "my-cluster" deleted');
    expect((await api.store.list({ group: 'cluster.x-k8s.io', kind: 'MachineDeployment' })).items).toEqual([]);
    expect((await kubectl('get', 'clusters.cluster.x-k8s.io', '-A')).stderr).toBe('No resources found\n');
  });
});
