/**
 * The stack as deployed: the CloudFormation template `npm run synth` wrote to cdk.out, created
 * in moto's CloudFormation (minus the resource types moto has no model for, printed), its
 * functions run from their bundled code by the template-driven runtime in deployed/, a cluster
 * applied, scaled and deleted through the deployed HTTP API with SigV4. Two deliberate wiring
 * breakages must keep the cluster from converging.
 */

import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { projectRoot } from '../../lib/stacks/functions/project-root.js';
import { conditionsOf, findCondition } from '../../shared/contracts/conditions.js';
import { isRecord, valueAt } from '../../shared/contracts/json.js';
import { type KubeObject, LABEL_CLUSTER_NAME } from '../../shared/contracts/object.js';
import { eventually } from '../support/eventually.js';
import { RestClient, type SendRequest } from '../support/rest-client.js';
import { type Template, unsupportedTypes } from './deployed/deploy-plan.js';
import { type DeployedStack, deployToMoto } from './deployed/deploy-to-moto.js';
import { DeployedRuntime } from './deployed/deployed-runtime.js';
import { allOf, applyExample, EXAMPLE_KINDS, exercised, CLUSTER, CORE, isAvailable, logicalIdAt, NS, WORKERS, withFunctionVariable, withProperties } from './deployed/example-cluster.js';
import { type FaultProxy, startFaultProxy } from './deployed/fault-proxy.js';
import type { IamCaller } from './deployed/http-api.js';
import { assumeRole, createAdministrator } from './deployed/iam-identities.js';
import { MOTO_REGION, MotoApi } from './deployed/moto-api.js';
import { resetMoto, startMotoWithoutLambdaPollers } from './deployed/moto-lambda-off.js';
import { signRequest } from './deployed/sigv4.js';
import type { RunningEmulator } from './setup/emulator-process.js';

const CDK_OUT = process.env.CAPLESS_CDK_OUT ?? join(projectRoot(), 'cdk.out');

/** What moto 5.2 cannot create from capless's template today; a change here is a change to what the deployed test proves. */
const EXPECTED_UNSUPPORTED = [
  'AWS::ApiGatewayV2::Api',
  'AWS::ApiGatewayV2::Integration',
  'AWS::ApiGatewayV2::Route',
  'AWS::ApiGatewayV2::Stage',
  'AWS::CDK::Metadata',
  'AWS::CloudWatch::Alarm',
  // Each reconciler's asynchronous invocation settings (ADR 0110): the runtime reads them from the
  // synthesized template instead (deployed/lambda-invoke-api.ts).
  'AWS::Lambda::EventInvokeConfig',
  // The watch function's URL (ADR 0080): moto's CloudFormation has no model for function URLs;
  // the watch function itself is deployed, its handler is tested on dynalite.
  'AWS::Lambda::Url',
  'AWS::SQS::QueuePolicy',
  'AWS::Scheduler::Schedule',
  // The hosted extensions' path secret (ADR 0100): moto's CloudFormation has no model for it, so the
  // hooks function that reads it is left out as well; its route and handler are tested in-process.
  'AWS::SecretsManager::Secret',
];

const caller: IamCaller = { accessKeyId: 'AKIDCAPLESSDEPLOYED', secretAccessKey: 'deployed-test-secret', userArn: 'arn:aws:iam::123456789012:user/capless-deployed-test' };

const signedFetch: SendRequest = (url, init) => {
  const body = init.body ?? '';
  return fetch(url, { method: init.method, headers: signRequest({ method: init.method, url, headers: init.headers, body }, caller, MOTO_REGION, 'execute-api'), ...(init.body === undefined ? {} : { body }) });
};

let moto: RunningEmulator;
let runtime: DeployedRuntime | undefined;
let printed: string[] = [];
let faultProxies: FaultProxy[] = [];

beforeAll(async () => {
  // IAM is enforced for SQS: every function runs under its own role (see the README for what stays unproven).
  moto = await startMotoWithoutLambdaPollers(['sqs']);
}, 90_000);

afterAll(async () => {
  await runtime?.stop();
  await Promise.all(faultProxies.map((proxy) => proxy.close()));
  await moto?.stop();
});

beforeEach(async () => {
  await runtime?.stop();
  runtime = undefined;
  await Promise.all(faultProxies.map((proxy) => proxy.close()));
  faultProxies = [];
  printed = [];
  await resetMoto(moto.endpoint);
});

async function deployAndRun(edit?: (template: Template) => Template): Promise<{ deployed: DeployedStack; rt: DeployedRuntime; api: RestClient }> {
  const api = new MotoApi(moto.endpoint);
  const deployed = await deployToMoto(api, {
    cdkOut: CDK_OUT,
    ...(edit ? { edit } : {}),
    log: (text) => {
      printed.push(text);
      console.info(text);
    },
  });
  runtime = await DeployedRuntime.start(api, deployed, {
    callers: [caller],
    serviceCredentials: await createAdministrator(api),
    credentialsFor: (roleArn) => assumeRole(api, roleArn),
  });
  return { deployed, rt: runtime, api: new RestClient(runtime.apiUrl, '', signedFetch) };
}

async function runningWorkers(api: RestClient): Promise<KubeObject[]> {
  const machines = await api.list(CORE, 'Machine', NS, `${LABEL_CLUSTER_NAME}=${CLUSTER}`);
  return machines.filter((m) => m.metadata.labels?.['cluster.x-k8s.io/deployment-name'] === WORKERS && m.status?.phase === 'Running' && !m.metadata.deletionTimestamp);
}

describe('the synthesized stack deployed to moto', () => {
  it('runs a cluster through the deployed API: apply, Available, scale, delete, with every function and mapping exercised and nothing dead-lettered', async () => {
    const { deployed, rt, api } = await deployAndRun();
    expect(unsupportedTypes(deployed.plan)).toEqual(EXPECTED_UNSUPPORTED);
    expect(printed.join('\n')).toContain('AWS::SQS::QueuePolicy');

    const unsigned = await fetch(`${rt.apiUrl}/apis/${CORE}/namespaces/${NS}/clusters`);
    expect(unsigned.status).toBe(403);

    await applyExample(api);
    await eventually('Cluster dev Available through the deployed stack', async (report) => {
      const cluster = await api.get(CORE, 'Cluster', NS, CLUSTER);
      report({ conditions: conditionsOf(cluster?.status).map((c) => `${c.type}=${c.status}`), runtime: rt.report() });
      return isAvailable(cluster) ? cluster : undefined;
    }, { timeoutMs: 300_000, intervalMs: 1_000 });

    await api.mergePatch(CORE, 'MachineDeployment', NS, WORKERS, { spec: { replicas: 3 } });
    await eventually('three Running workers', async (report) => {
      const workers = await runningWorkers(api);
      report(workers.map((m) => m.metadata.name));
      return workers.length === 3 ? workers : undefined;
    }, { timeoutMs: 240_000, intervalMs: 1_000 });

    const resync = await rt.runSchedules();
    expect(resync.map((r) => r.result.ok)).toEqual([true]);

    const deleted = await api.delete(CORE, 'Cluster', NS, CLUSTER);
    expect([200, 202]).toContain(deleted.status);
    await eventually('the cluster and its machines gone', async (report) => {
      const machines = await api.list(CORE, 'Machine', NS, `${LABEL_CLUSTER_NAME}=${CLUSTER}`);
      const cluster = await api.get(CORE, 'Cluster', NS, CLUSTER);
      report({ machines: machines.length, cluster: cluster?.metadata.name });
      return machines.length === 0 && cluster === undefined ? true : undefined;
    }, { timeoutMs: 240_000, intervalMs: 1_000 });
    await rt.settle();

    const report = rt.report();
    const reconciled = [...rt.functions.values()].map((fn) => fn.spec.environment.RECONCILE_KIND);
    expect(EXAMPLE_KINDS.filter((kind) => !reconciled.includes(kind))).toEqual([]);
    for (const fn of rt.functions.values()) {
      if (exercised(fn)) expect(fn.invocations, `${fn.spec.logicalId} never ran\n${report}`).toBeGreaterThan(0);
      else expect(fn.invocations, `${fn.spec.logicalId} ran, but the example has no ${fn.spec.environment.RECONCILE_KIND}\n${report}`).toBe(0);
      expect(fn.errors, `${fn.spec.logicalId} failed\n${report}`).toEqual([]);
    }
    for (const poller of [...rt.sqsPollers, ...rt.streamPollers]) {
      if (exercised(poller.fn)) expect(poller.delivered, `${poller.fn.spec.logicalId}'s mapping delivered nothing\n${report}`).toBeGreaterThan(0);
    }
    expect(rt.streamPollers.map((p) => p.discarded)).toEqual([0]);
    // The dispatcher invoked the reconcilers asynchronously, and none of those invocations failed.
    expect(rt.lambda.counters.accepted, report).toBeGreaterThan(0);
    expect(rt.lambda.counters.failed, report).toBe(0);
    expect((await rt.deadLetterDepths()).filter((q) => q.visible + q.inFlight > 0)).toEqual([]);
    expect(rt.api.counters.functionErrors).toBe(0);
  }, 900_000);

  it.each([
    ['ReconcileInMemoryMachine', 'SharedWork/Queue', 'allowed'],
    ['ReconcileInMemoryMachine', 'InMemoryMachine/DeadLetterQueue', 'allowed'],
    ['ReconcileInMemoryMachine', 'Cluster/DeadLetterQueue', 'refused'],
    ['ReconcileKubeadmConfig', 'KubeadmControlPlane/DeadLetterQueue', 'refused'],
    ['Router', 'SharedWork/Queue', 'allowed'],
    ['Router', 'Cluster/DeadLetterQueue', 'refused'],
    ['Work/Dispatcher', 'Cluster/DeadLetterQueue', 'allowed'],
    ['ApiFunction', 'SharedWork/Queue', 'refused'],
  ])("IAM for SQS: %s's role sending to the %s is %s", async (fn, queuePath, verdict) => {
    const api = new MotoApi(moto.endpoint);
    const deployed = await deployToMoto(api, { cdkOut: CDK_OUT, log: () => undefined });
    const fnId = logicalIdAt(deployed.synthesized, `/${fn}/Function/Resource`);
    const role = deployed.resources.get(logicalIdAt(deployed.synthesized, `/${fn}/Role/Resource`));
    const queue = deployed.resources.get(logicalIdAt(deployed.synthesized, `/Queues/${queuePath}/Resource`));
    if (!role || !queue) throw new Error(`${fnId}: role or ${queuePath} not deployed`);
    const roleArn = `arn:aws:iam::${deployed.accountId}:role/${role.physicalId}`;
    const asFunction = new MotoApi(moto.endpoint, await assumeRole(api, roleArn));
    const body = JSON.stringify({ QueueUrl: queue.physicalId, MessageBody: '{}' });
    const sent = await asFunction
      .call('sqs', 'POST', '/', body, { 'content-type': 'application/x-amz-json-1.0', 'x-amz-target': 'AmazonSQS.SendMessage' })
      .then(() => 'allowed', (error: unknown) => (String(error).includes('AccessDenied') ? 'refused' : String(error)));
    expect(sent).toBe(verdict);
  });

  it('ends two faults with dead letters, never a hang: a reconciler that fails on every event (the object says so) and a function that never answers (its invocations fail, the dispatcher counts them)', async () => {
    // The MachineDeployment function: every DynamoDB Query fails (its reconcile lists the
    // MachineSets and Machines first); item reads and writes, work records and SQS work, so the
    // reconcile is retried with backoff, then ReconcileSucceeded=False and its dead-letter queue.
    const failing = await startFaultProxy(moto.endpoint, (request) => (request.target === 'DynamoDB_20120810.Query' ? 'fail' : 'pass'));
    // The KubeadmControlPlane function: no DynamoDB request is ever answered, so every invocation
    // runs into the function timeout (2 s here); Lambda puts it on the on-failure destination (the
    // shared queue), and the dispatcher sends its requests again after the lease (3 s here, 120 s
    // as synthesized), one failure more each time, until it dead-letters them.
    const hanging = await startFaultProxy(moto.endpoint, () => 'hang');
    faultProxies.push(failing, hanging);
    const failingFn = '/ReconcileMachineDeployment/Function/Resource';
    const hangingFn = '/ReconcileKubeadmControlPlane/Function/Resource';
    const { rt, api } = await deployAndRun(
      allOf(
        withFunctionVariable(failingFn, 'AWS_ENDPOINT_URL_DYNAMODB', failing.url),
        withFunctionVariable(hangingFn, 'AWS_ENDPOINT_URL_DYNAMODB', hanging.url),
        withProperties(hangingFn, (properties) => {
          properties.Timeout = 2;
        }),
        withFunctionVariable(hangingFn, 'LEASE_SECONDS', '3'),
        withFunctionVariable('/Work/Dispatcher/Function/Resource', 'LEASE_SECONDS', '3'),
      ),
    );
    await applyExample(api, { controlPlane: 1, workers: 1 });

    const condition = await eventually('ReconcileSucceeded=False on the MachineDeployment', async (report) => {
      const md = await api.get(CORE, 'MachineDeployment', NS, WORKERS);
      const found = findCondition(conditionsOf(md?.status), 'ReconcileSucceeded');
      report({ condition: found, runtime: rt.report() });
      return found?.status === 'False' ? found : undefined;
    }, { timeoutMs: 180_000, intervalMs: 1_000 });
    expect(condition.reason).toBe('RetriesExhausted');
    expect(condition.message).toMatch(/^after 5 attempts: /);

    const deadLetterQueues = ['MachineDeployment', 'KubeadmControlPlane'].map((kind) => logicalIdAt(rt.stack.synthesized, `/Queues/${kind}/DeadLetterQueue/Resource`)).sort();
    const holding = await eventually('a dead letter in both faulty kinds\' queues', async (report) => {
      const depths = (await rt.deadLetterDepths()).filter((q) => q.visible + q.inFlight > 0).map((q) => q.logicalId).sort();
      report({ depths, runtime: rt.report() });
      return deadLetterQueues.every((id) => depths.includes(id)) ? depths : undefined;
    }, { timeoutMs: 120_000, intervalMs: 1_000 });
    // The faults stay with their kinds: no other dead letters.
    expect(holding).toEqual(deadLetterQueues);
    expect(failing.failed.get('DynamoDB_20120810.Query') ?? 0).toBeGreaterThan(0);

    // The hanging function's every invocation ended at its timeout: a clear error, a fresh
    // environment for the next one; every other function (the failing reconciler included: it
    // reports the failure, it does not crash) answered every invocation.
    const hangingId = logicalIdAt(rt.stack.synthesized, hangingFn);
    for (const fn of rt.functions.values()) {
      if (fn.spec.logicalId !== hangingId) expect(fn.errors, `${fn.spec.logicalId} failed\n${rt.report()}`).toEqual([]);
    }
    const timedOut = rt.functions.get(hangingId)?.errors ?? [];
    expect(timedOut.length, rt.report()).toBeGreaterThanOrEqual(5);
    expect(new Set(timedOut.map((e) => e.errorType))).toEqual(new Set(['Sandbox.Timedout']));
    expect(isAvailable(await api.get(CORE, 'Cluster', NS, CLUSTER))).toBe(false);
  }, 600_000);

  it('refuses a template whose function code is not among the assets, naming the function', async () => {
    const api = new MotoApi(moto.endpoint);
    const missing = (template: Template) => {
      const code = valueAt(template.Resources[logicalIdAt(template, '/ReconcileCluster/Function/Resource')], 'Properties', 'Code');
      if (isRecord(code)) code.S3Key = 'no-such-asset.zip';
      return template;
    };
    await expect(deployToMoto(api, { cdkOut: CDK_OUT, edit: missing, log: () => undefined })).rejects.toThrow(
      /cannot create function ControlPlaneReconcileCluster\w+: its code .*no-such-asset\.zip is not in moto's S3/,
    );
  });

  /** Where a breakage shows, besides the cluster never becoming Available. */
  type Evidence = (rt: DeployedRuntime) => Promise<string | undefined>;

  /** The dispatcher's RECONCILER_FUNCTIONS as the template writes it: a join of `"<kind>":"` strings and function Refs. */
  const reconcilerFunctionParts = (template: Template): unknown[] => {
    const dispatcher = template.Resources[logicalIdAt(template, '/Work/Dispatcher/Function/Resource')];
    const join = valueAt(dispatcher?.Properties, 'Environment', 'Variables', 'RECONCILER_FUNCTIONS', 'Fn::Join');
    const parts: unknown = Array.isArray(join) ? join[1] : undefined;
    if (!Array.isArray(parts)) throw new Error('the dispatcher has no RECONCILER_FUNCTIONS join');
    return parts;
  };
  const entryOf = (parts: unknown[], kind: string): number => {
    const at = parts.findIndex((part) => typeof part === 'string' && part.endsWith(`/${kind}":"`));
    if (at < 0) throw new Error(`no ${kind} entry in the dispatcher's RECONCILER_FUNCTIONS`);
    return at;
  };

  it.each<[string, (template: Template) => Template, Evidence]>([
    [
      'a dispatcher that does not know the InMemoryMachine reconciler',
      (template) => {
        const parts = reconcilerFunctionParts(template);
        const at = entryOf(parts, 'InMemoryMachine');
        parts[at] = String(parts[at]).replace('/InMemoryMachine":"', '/NotInMemoryMachine":"');
        return template;
      },
      async (rt) => {
        const dispatcher = rt.sqsPollers.find((p) => p.fn.spec.logicalId === logicalIdAt(rt.stack.synthesized, '/Work/Dispatcher/Function/Resource'));
        return dispatcher && dispatcher.kept > 0 ? undefined : 'the dispatcher left no InMemoryMachine request on the shared queue';
      },
    ],
    [
      'the dispatcher invoking the InMemoryCluster reconciler with InMemoryMachine requests',
      (template) => {
        const parts = reconcilerFunctionParts(template);
        parts[entryOf(parts, 'InMemoryMachine') + 1] = { Ref: logicalIdAt(template, '/ReconcileInMemoryCluster/Function/Resource') };
        return template;
      },
      async (rt) => {
        const refusing = rt.functions.get(logicalIdAt(rt.stack.synthesized, '/ReconcileInMemoryCluster/Function/Resource'));
        const refused = (refusing?.errors ?? []).filter((e) => e.errorMessage.includes('this function serves InMemoryCluster'));
        return refused.length > 0 ? undefined : 'the InMemoryCluster reconciler refused no invocation';
      },
    ],
  ])('does not converge with %s', async (_breakage, edit, evidence) => {
    const { rt, api } = await deployAndRun(edit);
    await applyExample(api, { controlPlane: 1, workers: 1 });
    await rt.settle();
    const cluster = await api.get(CORE, 'Cluster', NS, CLUSTER);
    expect(isAvailable(cluster), rt.report()).toBe(false);
    const machines = await api.list(CORE, 'Machine', NS, `${LABEL_CLUSTER_NAME}=${CLUSTER}`);
    expect(machines.filter((m) => m.status?.phase === 'Running').map((m) => m.metadata.name), rt.report()).toEqual([]);
    expect(await evidence(rt), rt.report()).toBeUndefined();
  }, 600_000);
});
