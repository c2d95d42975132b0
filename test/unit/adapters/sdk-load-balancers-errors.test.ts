/**
 * How the ELBv2 adapter maps ELBv2's error answers (query protocol XML, decoded by the real SDK
 * client from a local HTTP server): gone-on-delete is success, throttling is a throttled
 * CloudApiError, the rest keep their code for the condition.
 */

import { createServer, type Server } from 'node:http';
import { ElasticLoadBalancingV2Client } from '@aws-sdk/client-elastic-load-balancing-v2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SdkLoadBalancers } from '../../../shared/adapters/aws/elbv2/sdk-load-balancers.js';
import { CloudApiError } from '../../../shared/errors/index.js';

let answer = { status: 400, code: 'Throttling' };
let server: Server;
let endpoint = '';

beforeAll(async () => {
  server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(answer.status, { 'content-type': 'text/xml' });
      response.end(
        `<ErrorResponse xmlns="http://elasticloadbalancing.amazonaws.com/doc/2015-12-01/"><Error><Type>Sender</Type><Code>${answer.code}</Code><Message>${answer.code} from the test</Message></Error><RequestId>r-1</RequestId></ErrorResponse>`,
      );
    });
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the error server has no TCP port');
  endpoint = `http://127.0.0.1:${address.port}`;
});

afterAll(() => new Promise<void>((closed) => server.close(() => closed())));

function adapter(): SdkLoadBalancers {
  return new SdkLoadBalancers(new ElasticLoadBalancingV2Client({ endpoint, region: 'us-east-1', maxAttempts: 1, credentials: { accessKeyId: 'k', secretAccessKey: 's' } }));
}

const TG = 'arn:aws:elasticloadbalancing:us-east-1:123456789012:targetgroup/tg/1';
const LB = 'arn:aws:elasticloadbalancing:us-east-1:123456789012:loadbalancer/net/lb/1';

describe('ELBv2 adapter: error answers', () => {
  it.each([
    ['deleteLoadBalancer', 'LoadBalancerNotFound', () => adapter().deleteLoadBalancer(LB)],
    ['deleteTargetGroup', 'TargetGroupNotFound', () => adapter().deleteTargetGroup(TG)],
    ['deregisterTarget', 'InvalidTarget', () => adapter().deregisterTarget(TG, 'i-0123', 6443)],
    ['deregisterTarget', 'TargetGroupNotFound', () => adapter().deregisterTarget(TG, 'i-0123', 6443)],
    ['findLoadBalancer', 'LoadBalancerNotFound', () => adapter().findLoadBalancer('lb')],
    ['findTargetGroup', 'TargetGroupNotFound', () => adapter().findTargetGroup('tg')],
  ])('%s answered %s: the desired state holds, no error', async (_call, code, call) => {
    answer = { status: 400, code };
    await expect(call()).resolves.toBeUndefined();
  });

  it.each([
    ['describeTargets', 'Throttling', 400, true, () => adapter().describeTargets(TG)],
    ['registerTarget', 'Throttling', 400, true, () => adapter().registerTarget(TG, 'i-0123', 6443)],
    ['deleteTargetGroup', 'ResourceInUse', 400, false, () => adapter().deleteTargetGroup(TG)],
    ['createLoadBalancer', 'AccessDenied', 403, false, () => adapter().createLoadBalancer({ name: 'lb', scheme: 'internal', subnetIds: ['subnet-1'], securityGroupIds: [], tags: {} })],
    ['registerTarget', 'InvalidTarget', 400, false, () => adapter().registerTarget(TG, 'i-0123', 6443)],
    ['describeTargets', 'TargetGroupNotFound', 400, false, () => adapter().describeTargets(TG)],
  ])('%s answered %s: a CloudApiError with that code (throttled: %s)', async (_call, code, status, throttled, call) => {
    answer = { status, code };
    const error: unknown = await call().then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(error).toBeInstanceOf(CloudApiError);
    expect(error).toMatchObject({ code, throttled });
  });
});
