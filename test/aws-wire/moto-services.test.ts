/**
 * The AWS services later providers need answer through moto's server with the SDK clients the
 * project pins: EC2 (instances by ClientToken and by tag) and Secrets Manager (create, read,
 * delete). Later issues add their tests here or beside this file; the endpoint comes from the
 * aws-wire global setup (`inject('motoEndpoint')`).
 */

import {
  DescribeInstancesCommand,
  EC2Client,
  type Instance,
  RunInstancesCommand,
  type RunInstancesCommandInput,
  TerminateInstancesCommand,
} from '@aws-sdk/client-ec2';
import {
  CreateSecretCommand,
  DeleteSecretCommand,
  GetSecretValueCommand,
  ResourceExistsException,
  ResourceNotFoundException,
  SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager';
import { afterAll, describe, expect, inject, it } from 'vitest';

const REGION = 'us-east-1';
const CREDENTIALS = { accessKeyId: 'moto', secretAccessKey: 'moto' };
/** One of the AMIs moto loads by default; moto does not validate AMIs unless asked to. */
const IMAGE_ID = 'ami-12c6146b';
/** Distinct per run, so tags and secret names never meet an earlier test's. */
const RUN = Date.now().toString(36);

const ec2 = new EC2Client({ endpoint: inject('motoEndpoint'), region: REGION, credentials: CREDENTIALS, maxAttempts: 1 });
const secrets = new SecretsManagerClient({ endpoint: inject('motoEndpoint'), region: REGION, credentials: CREDENTIALS, maxAttempts: 1 });

afterAll(() => {
  ec2.destroy();
  secrets.destroy();
});

function launch(machine: string, clientToken: string): RunInstancesCommandInput {
  return {
    ImageId: IMAGE_ID,
    InstanceType: 't3.micro',
    MinCount: 1,
    MaxCount: 1,
    ClientToken: clientToken,
    TagSpecifications: [
      {
        ResourceType: 'instance',
        Tags: [
          { Key: 'capless.io/machine', Value: machine },
          { Key: 'capless.io/run', Value: RUN },
        ],
      },
    ],
  };
}

async function instancesTagged(key: string, value: string): Promise<Instance[]> {
  const found = await ec2.send(new DescribeInstancesCommand({ Filters: [{ Name: `tag:${key}`, Values: [value] }] }));
  return (found.Reservations ?? []).flatMap((reservation) => reservation.Instances ?? []);
}

function onlyInstanceId(instances: readonly Instance[] | undefined): string {
  expect(instances).toHaveLength(1);
  const id = instances?.[0]?.InstanceId;
  if (!id) throw new Error('RunInstances returned no instance id');
  return id;
}

describe('EC2 through moto', () => {
  it('launches an instance that carries its ClientToken and tags, found again by tag', async () => {
    const machine = `by-tag-${RUN}`;
    const id = onlyInstanceId((await ec2.send(new RunInstancesCommand(launch(machine, `token-${machine}`)))).Instances);

    const found = await instancesTagged('capless.io/machine', machine);

    expect(found.map((instance) => instance.InstanceId)).toEqual([id]);
    expect(found[0]).toMatchObject({ ClientToken: `token-${machine}`, ImageId: IMAGE_ID, State: { Name: 'running' } });
    expect(found[0]?.Tags).toEqual(expect.arrayContaining([{ Key: 'capless.io/machine', Value: machine }]));
  });

  // Real EC2 answers a repeated RunInstances with the same ClientToken with the first instance;
  // moto 5.2.5 launches another. A provider that relies on the token must therefore look its
  // instance up (by tag, reading ClientToken back) before launching, or its moto tests will see
  // doubles. If this test fails, moto learned idempotency: turn it into a same-instance assertion.
  it('does not dedupe RunInstances by ClientToken (real EC2 does): the lookup by tag is what finds the duplicate', async () => {
    const machine = `twice-${RUN}`;
    const first = onlyInstanceId((await ec2.send(new RunInstancesCommand(launch(machine, `token-${machine}`)))).Instances);
    const second = onlyInstanceId((await ec2.send(new RunInstancesCommand(launch(machine, `token-${machine}`)))).Instances);

    expect(second).not.toBe(first);
    const found = await instancesTagged('capless.io/machine', machine);
    expect(found.map((instance) => instance.InstanceId).sort()).toEqual([first, second].sort());
    expect(found.every((instance) => instance.ClientToken === `token-${machine}`)).toBe(true);
  });

  it('terminates an instance, which DescribeInstances then reports as terminated', async () => {
    const machine = `terminate-${RUN}`;
    const id = onlyInstanceId((await ec2.send(new RunInstancesCommand(launch(machine, `token-${machine}`)))).Instances);

    await ec2.send(new TerminateInstancesCommand({ InstanceIds: [id] }));

    expect((await instancesTagged('capless.io/machine', machine)).map((instance) => instance.State?.Name)).toEqual(['terminated']);
  });
});

describe('Secrets Manager through moto', () => {
  it('creates a secret, reads it back, refuses a second create, and deletes it for good', async () => {
    const name = `capless/${RUN}/kubeconfig`;
    const value = JSON.stringify({ kubeconfig: 'apiVersion: v1\nkind: Config\n' });

    const created = await secrets.send(new CreateSecretCommand({ Name: name, SecretString: value }));
    expect(created.Name).toBe(name);
    expect(created.ARN).toContain(`secret:${name}`);

    expect((await secrets.send(new GetSecretValueCommand({ SecretId: name }))).SecretString).toBe(value);
    await expect(secrets.send(new CreateSecretCommand({ Name: name, SecretString: 'other' }))).rejects.toBeInstanceOf(ResourceExistsException);

    await secrets.send(new DeleteSecretCommand({ SecretId: name, ForceDeleteWithoutRecovery: true }));
    await expect(secrets.send(new GetSecretValueCommand({ SecretId: name }))).rejects.toBeInstanceOf(ResourceNotFoundException);
  });

  it('keeps binary secrets byte for byte', async () => {
    const name = `capless/${RUN}/ca-key`;
    const bytes = Uint8Array.from([0, 1, 2, 253, 254, 255]);

    await secrets.send(new CreateSecretCommand({ Name: name, SecretBinary: bytes }));

    expect(Array.from((await secrets.send(new GetSecretValueCommand({ SecretId: name }))).SecretBinary ?? [])).toEqual(Array.from(bytes));
    await secrets.send(new DeleteSecretCommand({ SecretId: name, ForceDeleteWithoutRecovery: true }));
  });
});
