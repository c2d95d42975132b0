/**
 * The AWS provider's SDK adapters on moto pass the same conformance suite as the in-memory fakes,
 * with the clients configured only by the standard environment (AWS_ENDPOINT_URL, AWS_REGION and
 * credentials): the SDK reads the endpoint variables itself.
 */

import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { SdkAwsCloudFactory } from '../../shared/adapters/aws/aws-cloud/sdk-aws-cloud.js';
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
  it('AWS_ENDPOINT_URL_EC2 wins over AWS_ENDPOINT_URL for EC2 (the SDK reads both natively)', async () => {
    const before = { ...process.env };
    try {
      process.env.AWS_ENDPOINT_URL = 'http://127.0.0.1:9';
      process.env.AWS_ENDPOINT_URL_EC2 = inject('motoEndpoint');
      const cloud = new SdkAwsCloudFactory().forRegion('eu-central-1');
      const zones = await cloud.ec2.describeAvailabilityZones();
      expect(zones.map((z) => z.name)).toContain('eu-central-1a');
    } finally {
      process.env = before;
    }
  });
});
