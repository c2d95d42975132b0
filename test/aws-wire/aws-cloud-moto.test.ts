/**
 * The AWS provider's SDK adapters on moto pass the same conformance suite as the in-memory fakes,
 * with the clients configured only by the standard environment (AWS_ENDPOINT_URL, AWS_REGION and
 * credentials): the SDK reads the endpoint variables itself.
 */

import { ElasticLoadBalancingV2Client } from '@aws-sdk/client-elastic-load-balancing-v2';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { SdkAwsCloudFactory } from '../../shared/adapters/aws/aws-cloud/sdk-aws-cloud.js';
import type { AwsCloud } from '../../shared/ports/aws-cloud.js';
import { describeAwsCloudConformance } from '../conformance/aws-cloud.conformance.js';

const REGION = 'us-east-1';
const saved = { ...process.env };

beforeAll(() => {
  process.env.AWS_ENDPOINT_URL = inject('motoEndpoint');
  process.env.AWS_REGION = REGION;
  process.env.AWS_ACCESS_KEY_ID = 'moto';
  process.env.AWS_SECRET_ACCESS_KEY = 'moto';
});

afterAll(() => {
  process.env = saved;
});

describeAwsCloudConformance('SDK adapters on moto', async () => ({
  cloud: new SdkAwsCloudFactory().forRegion(REGION),
  region: REGION,
  idempotentClientToken: false,
  imageId: 'ami-12c6146b',
}));

describe('endpoint variables', () => {
  // AWS_ENDPOINT_URL points at a port that refuses connections: an answer came from the per-service variable's moto.
  it.each([
    ['EC2', async (cloud: AwsCloud) => (await cloud.ec2.describeAvailabilityZones()).map((z) => z.name).includes('eu-central-1a')],
    ['SECRETS_MANAGER', async (cloud: AwsCloud) => (await cloud.secrets.getSecret(`endpoint-probe-${Date.now()}`)) === undefined],
    ['ELASTIC_LOAD_BALANCING_V2', async (cloud: AwsCloud) => (await cloud.loadBalancers.findTargetGroup(`endpoint-probe-${Date.now()}`)) === undefined],
  ])('AWS_ENDPOINT_URL_%s wins over AWS_ENDPOINT_URL (the SDK reads both natively)', async (service, answersFromMoto) => {
    const before = { ...process.env };
    try {
      process.env.AWS_ENDPOINT_URL = 'http://127.0.0.1:9';
      process.env[`AWS_ENDPOINT_URL_${service}`] = inject('motoEndpoint');
      expect(await answersFromMoto(new SdkAwsCloudFactory().forRegion('eu-central-1'))).toBe(true);
    } finally {
      process.env = before;
    }
  });

  it('a client built without a region takes AWS_REGION', async () => {
    const before = { ...process.env };
    try {
      process.env.AWS_REGION = 'ap-southeast-2';
      const client = new ElasticLoadBalancingV2Client({});
      expect(await client.config.region()).toBe('ap-southeast-2');
      client.destroy();
    } finally {
      process.env = before;
    }
  });
});

describe('images and volumes on moto', () => {
  it("an image found by id names its root device and snapshot size, and an instance launches with volumes at that device", async () => {
    const cloud = new SdkAwsCloudFactory().forRegion(REGION);
    const [image] = await cloud.ec2.describeImages({ owners: [], filters: [{ name: 'image-id', values: ['ami-12c6146b'] }] });
    expect(image).toMatchObject({ id: 'ami-12c6146b', rootDeviceName: '/dev/sda1', rootSnapshotSizeGiB: expect.any(Number) });
    const vpc = await cloud.ec2.createVpc({ cidrBlock: '10.9.0.0/16', tags: { Name: 'volumes' } });
    const [zone] = await cloud.ec2.describeAvailabilityZones();
    const subnet = await cloud.ec2.createSubnet({ vpcId: vpc.id, cidrBlock: '10.9.1.0/24', availabilityZone: zone?.name ?? '', tags: { Name: 'volumes' } });
    const instance = await cloud.ec2.runInstance({
      clientToken: `volumes-${Date.now()}`,
      imageId: 'ami-12c6146b',
      instanceType: 't3.micro',
      subnetId: subnet.id,
      securityGroupIds: [],
      userData: Buffer.from('#cloud-config\n').toString('base64'),
      tags: { Name: 'volumes' },
      volumes: [
        { deviceName: image?.rootDeviceName ?? '', sizeGiB: 40, type: 'gp3', iops: 3000, throughput: 125, encrypted: true },
        // moto refuses io1 even with Iops ("requires the parameter Iops"): gp2 here.
        { deviceName: '/dev/sdb', sizeGiB: 100, type: 'gp2' },
      ],
    });
    expect(instance.id).toMatch(/^i-/);
    await cloud.ec2.terminateInstances([instance.id]);
  });
});
