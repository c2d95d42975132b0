/**
 * The ELBv2 SDK adapter on moto passes the LoadBalancers conformance suite the in-memory fake
 * passes, with the client configured only by the standard environment (AWS_ENDPOINT_URL,
 * AWS_REGION, credentials); the per-service variable AWS_ENDPOINT_URL_ELASTIC_LOAD_BALANCING_V2
 * wins over AWS_ENDPOINT_URL, which the SDK reads itself.
 */

import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { SdkAwsCloudFactory } from '../../shared/adapters/aws/aws-cloud/sdk-aws-cloud.js';
import { describeLoadBalancersConformance } from '../conformance/load-balancers.conformance.js';

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

describeLoadBalancersConformance('ELBv2 SDK adapter on moto', async () => ({
  cloud: new SdkAwsCloudFactory().forRegion(REGION),
  imageId: 'ami-12c6146b',
}));

describe('ELBv2 endpoint variables', () => {
  it('AWS_ENDPOINT_URL_ELASTIC_LOAD_BALANCING_V2 wins over AWS_ENDPOINT_URL for ELBv2 (the SDK reads both natively)', async () => {
    const before = { ...process.env };
    try {
      process.env.AWS_ENDPOINT_URL = 'http://127.0.0.1:9';
      process.env.AWS_ENDPOINT_URL_ELASTIC_LOAD_BALANCING_V2 = inject('motoEndpoint');
      const cloud = new SdkAwsCloudFactory().forRegion('eu-central-1');
      // Port 9 refuses connections: an answer at all (here "no such target group") came from moto.
      expect(await cloud.loadBalancers.findTargetGroup(`endpoint-probe-${Date.now()}`)).toBeUndefined();
      const [zone] = await cloud.ec2.describeAvailabilityZones().catch(() => []);
      expect(zone, 'EC2 still goes to AWS_ENDPOINT_URL, which refuses').toBeUndefined();
    } finally {
      process.env = before;
    }
  });
});
