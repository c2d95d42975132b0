import { type ChildProcess, execFile } from 'node:child_process';
import { chmod, lstat, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:https';
import { promisify } from 'node:util';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readKubeconfigCredentials } from '../../local/data-dir.js';
import { OBJECT_JOURNAL_FILE } from '../../local/file-object-store.js';
import { numberAt, valueAt } from '../../shared/contracts/json.js';
import { exited, startCaplessUp as startUp } from '../support/capless-up-process.js';
import { tcpListenPorts, unixSocketPaths } from '../support/tcp-listeners.js';

interface Reply {
  status: number;
  body: unknown;
}

/** HTTPS that trusts only the data dir's serving certificate, as a kubeconfig client does. */
function call(url: string, ca: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Reply> {
  return new Promise((resolveReply, reject) => {
    const req = request(url, { method: init.method ?? 'GET', headers: init.headers ?? {}, ca }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // plain text (readyz)
        }
        resolveReply({ status: res.statusCode ?? 0, body });
      });
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

/** The embedded store's Unix socket(s) the process has open: db.sock in a capless-db-XXXXXX temp dir. */
async function storeSocketPaths(child: ChildProcess): Promise<string[]> {
  if (child.pid === undefined) throw new Error('capless up has no pid');
  return (await unixSocketPaths(child.pid)).filter((path) => /\/capless-db-[^/]+\/db\.sock$/.test(path));
}

/** Every file and directory under `dir` (itself included) with its permission bits, symlinks not followed. */
async function modesUnder(dir: string): Promise<Array<{ path: string; mode: number }>> {
  const modes = [{ path: dir, mode: (await lstat(dir)).mode & 0o777 }];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) modes.push(...(await modesUnder(path)));
    else modes.push({ path, mode: (await lstat(path)).mode & 0o777 });
  }
  return modes;
}

const CLUSTERS = '/apis/cluster.x-k8s.io/v1beta2/namespaces/default/clusters';
const CONFIGMAPS = '/api/v1/namespaces/default/configmaps';

async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('capless up (a real process)', () => {
  const dirs: string[] = [];
  const children: ChildProcess[] = [];
  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('answers /readyz, rejects requests without the token, keeps data across kill -9, resumes work, and stops cleanly on SIGTERM', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'capless-up-'));
    dirs.push(dataDir);
    const first = await startUp(dataDir);
    children.push(first.child);
    // kill -9 below leaves the store's socket directory behind: remove it with the data dir.
    dirs.push(...(await storeSocketPaths(first.child)).map((path) => dirname(path)));

    const ca = await readFile(join(dataDir, 'serving.crt'), 'utf8');
    expect((await call(`${first.url}/readyz`, ca)).status).toBe(200);
    const anonymous = await call(`${first.url}${CLUSTERS}`, ca);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject({ kind: 'Status', code: 401, reason: 'Unauthorized' });
    const wrong = await call(`${first.url}${CLUSTERS}`, ca, { headers: { authorization: 'Bearer not-the-token' } });
    expect(wrong.status).toBe(401);

    const kubeconfigPath = join(dataDir, 'kubeconfig');
    const { token, server } = readKubeconfigCredentials(await readFile(kubeconfigPath, 'utf8'));
    expect(server).toBe(first.url);
    const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const configMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'kept' }, data: { answer: '42' } };
    expect((await call(`${first.url}${CONFIGMAPS}`, ca, { method: 'POST', headers: auth, body: JSON.stringify(configMap) })).status).toBe(201);
    // kubectl sends its bearer token only over TLS: the kubeconfig capless writes must work as is.
    const kubectl = await promisify(execFile)(process.env.KUBECTL ?? 'kubectl', ['--kubeconfig', kubeconfigPath, 'get', 'configmaps', '-o', 'name'], {
      env: { ...process.env, HOME: dataDir },
    });
    expect(kubectl.stdout).toContain('configmap/kept');
    // A Cluster created just before the crash: its reconcile may not have run yet.
    const cluster = { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', metadata: { name: 'resumed' }, spec: { clusterNetwork: { serviceDomain: 'cluster.local' } } };
    const created = await call(`${first.url}${CLUSTERS}`, ca, { method: 'POST', headers: auth, body: JSON.stringify(cluster) });
    expect(created.status).toBe(201);
    first.child.kill('SIGKILL');
    await exited(first.child);

    const second = await startUp(dataDir);
    children.push(second.child);
    const secondAuth = { authorization: `Bearer ${token}` };
    const kept = await call(`${second.url}${CONFIGMAPS}/kept`, ca, { headers: secondAuth });
    expect(kept.status).toBe(200);
    expect(kept.body).toMatchObject({ data: { answer: '42' } });
    const reconciled = await waitFor(async () => {
      const { body } = await call(`${second.url}${CLUSTERS}/resumed`, ca, { headers: secondAuth });
      const generation = numberAt(body, 'metadata', 'generation');
      const finalizers = valueAt(body, 'metadata', 'finalizers');
      const observed = numberAt(body, 'status', 'observedGeneration');
      return observed !== undefined && observed === generation && Array.isArray(finalizers) && finalizers.includes('cluster.cluster.x-k8s.io') ? observed : undefined;
    });
    expect(reconciled).toBeGreaterThanOrEqual(1);

    second.child.kill('SIGTERM');
    expect(await exited(second.child)).toBe(0);
  });

  it('with --workers 2, reconciles in worker threads of the bundled CLI and stops cleanly', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'capless-up-'));
    dirs.push(dataDir);
    const up = await startUp(dataDir, 0, ['--workers', '2']);
    children.push(up.child);
    const ca = await readFile(join(dataDir, 'serving.crt'), 'utf8');
    const { token } = readKubeconfigCredentials(await readFile(join(dataDir, 'kubeconfig'), 'utf8'));
    const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const cluster = { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', metadata: { name: 'threaded' }, spec: { clusterNetwork: { serviceDomain: 'cluster.local' } } };
    expect((await call(`${up.url}${CLUSTERS}`, ca, { method: 'POST', headers: auth, body: JSON.stringify(cluster) })).status).toBe(201);
    const observed = await waitFor(async () => {
      const { body } = await call(`${up.url}${CLUSTERS}/threaded`, ca, { headers: auth });
      const finalizers = valueAt(body, 'metadata', 'finalizers');
      return Array.isArray(finalizers) && finalizers.includes('cluster.cluster.x-k8s.io') ? numberAt(body, 'status', 'observedGeneration') : undefined;
    });
    expect(observed).toBe(1);
    up.child.kill('SIGTERM');
    expect(await exited(up.child)).toBe(0);
  });

  // Each embedded store (ADR 0131), on a data dir an older capless or a loose umask left world-readable.
  it.each([
    {
      store: 'file',
      storeFile: OBJECT_JOURNAL_FILE,
      leftBefore: async (dataDir: string) => writeFile(join(dataDir, OBJECT_JOURNAL_FILE), '{"format":"capless-objects/1"}\n', { mode: 0o644 }),
    },
    {
      store: 'dynalite',
      storeFile: join('dynamodb', 'CURRENT'),
      leftBefore: async (dataDir: string) => {
        await mkdir(join(dataDir, 'dynamodb'), { mode: 0o755 });
        await writeFile(join(dataDir, 'dynamodb', 'LOG'), 'an older LevelDB info log\n', { mode: 0o644 });
      },
    },
  ])('on the $store store, listens on one TCP port, the API\'s, and keeps its data dir private even when it pre-existed world-readable', async ({ store, storeFile, leftBefore }) => {
    const dataDir = await mkdtemp(join(tmpdir(), 'capless-up-'));
    dirs.push(dataDir);
    await chmod(dataDir, 0o755);
    await leftBefore(dataDir);
    const up = await startUp(dataDir, 0, ['--store', store]);
    children.push(up.child);

    const ca = await readFile(join(dataDir, 'serving.crt'), 'utf8');
    const { token } = readKubeconfigCredentials(await readFile(join(dataDir, 'kubeconfig'), 'utf8'));
    const configMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'private' }, data: { password: 'hunter2' } };
    const written = await call(`${up.url}${CONFIGMAPS}`, ca, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(configMap),
    });
    expect(written.status).toBe(201);

    const pid = up.child.pid;
    if (pid === undefined) throw new Error('capless up has no pid');
    expect(await tcpListenPorts(pid)).toEqual([Number(new URL(up.url).port)]);
    // dynalite is reached through a Unix socket in a directory only this user may enter; the file store has none.
    const sockets = await storeSocketPaths(up.child);
    expect(sockets).toHaveLength(store === 'dynalite' ? 1 : 0);
    for (const socketPath of sockets) expect((await lstat(dirname(socketPath))).mode & 0o777).toBe(0o700);

    const modes = await modesUnder(dataDir);
    expect(modes.find((m) => m.path === dataDir)?.mode).toBe(0o700);
    expect(modes.map((m) => m.path)).toContain(join(dataDir, storeFile));
    expect(modes.filter((m) => (m.mode & 0o077) !== 0)).toEqual([]);
    // The ConfigMap's value sits in the store's files, which only this user may read.
    if (store === 'file') expect(await readFile(join(dataDir, OBJECT_JOURNAL_FILE), 'utf8')).toContain('hunter2');

    up.child.kill('SIGTERM');
    expect(await exited(up.child)).toBe(0);
    for (const socketPath of sockets) await expect(lstat(dirname(socketPath))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('keeps running on dynalite for a data dir that holds a dynalite store and no object journal (an upgrade loses nothing)', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'capless-up-'));
    dirs.push(dataDir);
    const older = await startUp(dataDir, 0, ['--store', 'dynalite']);
    children.push(older.child);
    const ca = await readFile(join(dataDir, 'serving.crt'), 'utf8');
    const { token } = readKubeconfigCredentials(await readFile(join(dataDir, 'kubeconfig'), 'utf8'));
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const configMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'kept' }, data: { since: 'dynalite' } };
    expect((await call(`${older.url}${CONFIGMAPS}`, ca, { method: 'POST', headers, body: JSON.stringify(configMap) })).status).toBe(201);
    older.child.kill('SIGTERM');
    expect(await exited(older.child)).toBe(0);

    const upgraded = await startUp(dataDir);
    children.push(upgraded.child);
    const read = await call(`${upgraded.url}${CONFIGMAPS}/kept`, ca, { headers });
    expect(read.status).toBe(200);
    expect(valueAt(read.body, 'data', 'since')).toBe('dynalite');
    await expect(lstat(join(dataDir, OBJECT_JOURNAL_FILE))).rejects.toMatchObject({ code: 'ENOENT' });
    upgraded.child.kill('SIGTERM');
    expect(await exited(upgraded.child)).toBe(0);
  });
});
