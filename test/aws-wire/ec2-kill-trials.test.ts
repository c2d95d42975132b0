/**
 * `kill -9` of a real `capless up` process while it reconciles AWSMachines on moto: once in the
 * middle of a launch (user-data secrets written, instance id not yet recorded, when the timing
 * allows) and once during deletion; the restarted process must finish the job with one instance
 * per AWSMachine, the control-plane instance behind the load balancer and, after deletion, no
 * instance, load balancer or target group left. `capless up` reaches moto's EC2, Secrets Manager
 * and ELBv2 through AWS_ENDPOINT_URL alone.
 */

import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DescribeInstancesCommand, EC2Client, type Instance } from '@aws-sdk/client-ec2';
import { ElasticLoadBalancingV2Client } from '@aws-sdk/client-elastic-load-balancing-v2';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { readKubeconfigCredentials } from '../../local/data-dir.js';
import { isRecord, stringAt } from '../../shared/contracts/json.js';
import type { KubeObject } from '../../shared/contracts/object.js';
import { awsClusterObjects, awsStandaloneMachine } from '../support/aws-fixtures.js';
import { clusterLoadBalancing } from '../support/cluster-load-balancing.js';
import { collectionPath } from '../support/rest-client.js';
import { createMotoInstanceProfile } from '../support/moto-iam.js';

const KILL_TRIALS = 2;
const REGION = 'us-east-1';
const repoRoot = resolve(import.meta.dirname, '../..');
const CLUSTER = `kill-${Date.now().toString(36)}`;
const MACHINES = [`${CLUSTER}-cp`, `${CLUSTER}-w`];

let ec2: EC2Client;
let elbv2: ElasticLoadBalancingV2Client;
let env: NodeJS.ProcessEnv;
const children: ChildProcess[] = [];

function startUp(dataDir: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [join(repoRoot, 'bin/capless.mjs'), 'up', '--port', '0', '--data-dir', dataDir, '--log-level', 'error'], {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  return new Promise((done, reject) => {
    const timer = setTimeout(() => reject(new Error(`capless up did not start; output:\n${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /API (https:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        done({ child, url: match[1] });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
  });
}

function killed(child: ChildProcess): Promise<void> {
  return new Promise((done) => {
    if (child.exitCode !== null || child.signalCode !== null) return done();
    child.once('exit', () => done());
    child.kill('SIGKILL');
  });
}

async function api(url: string, dataDir: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }> {
  const ca = await readFile(join(dataDir, 'serving.crt'), 'utf8');
  const { token } = readKubeconfigCredentials(await readFile(join(dataDir, 'kubeconfig'), 'utf8'));
  return new Promise((done, reject) => {
    const req = request(`${url}${path}`, { method, ca, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString();
        done({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined });
      });
    });
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

const awsMachinePath = (name: string) => `${collectionPath('infrastructure.cluster.x-k8s.io/v1beta2', 'AWSMachine', 'default')}/${name}`;

async function liveInstances(): Promise<Instance[]> {
  const out = await ec2.send(new DescribeInstancesCommand({ Filters: [{ Name: `tag:sigs.k8s.io/cluster-api-provider-aws/cluster/${CLUSTER}`, Values: ['owned'] }] }));
  return (out.Reservations ?? []).flatMap((r) => r.Instances ?? []).filter((i) => i.State?.Name !== 'terminated' && i.State?.Name !== 'shutting-down');
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 120_000, intervalMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

describe(`kill -9 of capless up on moto (${KILL_TRIALS} trials)`, () => {
  let dataDir: string;

  beforeAll(async () => {
    const endpoint = inject('motoEndpoint');
    env = { ...process.env, AWS_ENDPOINT_URL: endpoint, AWS_REGION: REGION, AWS_ACCESS_KEY_ID: 'moto', AWS_SECRET_ACCESS_KEY: 'moto' };
    for (const profile of ['control-plane.cluster-api-provider-aws.sigs.k8s.io', 'nodes.cluster-api-provider-aws.sigs.k8s.io']) await createMotoInstanceProfile(endpoint, profile);
    ec2 = new EC2Client({ region: REGION, endpoint, credentials: { accessKeyId: 'moto', secretAccessKey: 'moto' } });
    elbv2 = new ElasticLoadBalancingV2Client({ region: REGION, endpoint, credentials: { accessKeyId: 'moto', secretAccessKey: 'moto' } });
    dataDir = await mkdtemp(join(tmpdir(), 'capless-kill-'));
  });

  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    ec2?.destroy();
    elbv2?.destroy();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('killed mid-launch and mid-deletion, the restarted process leaves one instance per AWSMachine, then none', async () => {
    const objects: KubeObject[] = [...awsClusterObjects(CLUSTER), ...awsStandaloneMachine(MACHINES[0] ?? '', CLUSTER, true), ...awsStandaloneMachine(MACHINES[1] ?? '', CLUSTER, false)].map(
      (o) => (o.kind === 'AWSMachine' ? { ...o, spec: { ...o.spec, ami: { id: 'ami-12c6146b' } } } : o),
    );
    let up = await startUp(dataDir);
    for (const object of objects) {
      const created = await api(up.url, dataDir, 'POST', collectionPath(object.apiVersion, object.kind, 'default'), object);
      expect(created.status, JSON.stringify(created.body)).toBe(201);
    }
    // Trial 1: kill as soon as an AWSMachine has its secrets written (a launch under way).
    await until('a launch under way', async () => {
      for (const name of MACHINES) {
        const { body } = await api(up.url, dataDir, 'GET', awsMachinePath(name));
        if (stringAt(body, 'spec', 'cloudInit', 'secretPrefix')) return true;
      }
      return undefined;
    });
    await killed(up.child);
    up = await startUp(dataDir);
    const recorded = await until('both AWSMachines ready', async () => {
      const ids: string[] = [];
      for (const name of MACHINES) {
        const { body } = await api(up.url, dataDir, 'GET', awsMachinePath(name));
        const ready = isRecord(body) && isRecord(body.status) && body.status.ready === true;
        const id = stringAt(body, 'spec', 'instanceID');
        if (!ready || !id) return undefined;
        ids.push(id);
      }
      return ids;
    }, 120_000, 500);
    const live = await liveInstances();
    expect(live.map((i) => i.InstanceId).sort()).toEqual([...recorded].sort());
    // The control-plane machine (the first) is the one target of the cluster's one load balancer.
    const attached = await until('the control-plane instance behind the load balancer', async () => {
      const balancing = await clusterLoadBalancing(elbv2, CLUSTER);
      return balancing.targetGroups[0]?.targets.length ? balancing : undefined;
    }, 60_000, 500);
    expect(attached.loadBalancers).toHaveLength(1);
    expect(attached.targetGroups.map((tg) => tg.targets)).toEqual([[recorded[0]]]);

    // Trial 2: kill while the cluster is being deleted.
    const clusterPath = `${collectionPath('cluster.x-k8s.io/v1beta2', 'Cluster', 'default')}/${CLUSTER}`;
    expect((await api(up.url, dataDir, 'DELETE', clusterPath)).status).toBeLessThan(300);
    await until('deletion under way', async () => ((await liveInstances()).length < 2 ? true : undefined), 60_000, 20).catch(() => true);
    await killed(up.child);
    up = await startUp(dataDir);
    await until('the Cluster gone', async () => ((await api(up.url, dataDir, 'GET', clusterPath)).status === 404 ? true : undefined), 120_000, 500);
    expect(await liveInstances()).toEqual([]);
    expect(await clusterLoadBalancing(elbv2, CLUSTER)).toEqual({ loadBalancers: [], targetGroups: [] });
    await killed(up.child);
  }, 280_000);
});
