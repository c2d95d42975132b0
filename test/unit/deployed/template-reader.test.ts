import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readSynthesizedStack, resolvePseudo } from '../../aws-wire/deployed/cloud-assembly.js';
import { asTemplate } from '../../aws-wire/deployed/deploy-plan.js';
import { functionCodeLocation, type HttpApiRoute, matchRoute, readHttpApiRoutes, readScheduleTargets } from '../../aws-wire/deployed/template-reader.js';

/** The shape CDK synthesizes for capless's HTTP API (two IAM routes through one integration) and its resync schedule. */
const template = asTemplate(
  {
    Resources: {
      ApiFn: {
        Type: 'AWS::Lambda::Function',
        // biome-ignore lint/suspicious/noTemplateCurlyInString: CloudFormation's Fn::Sub syntax, not a template literal
        Properties: { Code: { S3Bucket: { 'Fn::Sub': 'cdk-hnb659fds-assets-${AWS::AccountId}-us-east-1' }, S3Key: 'abc.zip' } },
      },
      ResyncFn: { Type: 'AWS::Lambda::Function', Properties: { Code: { ZipFile: 'exports.handler = async () => {}' } } },
      Api: { Type: 'AWS::ApiGatewayV2::Api' },
      Integration: {
        Type: 'AWS::ApiGatewayV2::Integration',
        Properties: { ApiId: { Ref: 'Api' }, IntegrationType: 'AWS_PROXY', IntegrationUri: { 'Fn::GetAtt': ['ApiFn', 'Arn'] }, PayloadFormatVersion: '2.0' },
      },
      RouteRoot: {
        Type: 'AWS::ApiGatewayV2::Route',
        Properties: { ApiId: { Ref: 'Api' }, AuthorizationType: 'AWS_IAM', RouteKey: 'ANY /', Target: { 'Fn::Join': ['', ['integrations/', { Ref: 'Integration' }]] } },
      },
      RouteProxy: {
        Type: 'AWS::ApiGatewayV2::Route',
        Properties: { ApiId: { Ref: 'Api' }, AuthorizationType: 'AWS_IAM', RouteKey: 'ANY /{proxy+}', Target: { 'Fn::Join': ['', ['integrations/', { Ref: 'Integration' }]] } },
      },
      Schedule: {
        Type: 'AWS::Scheduler::Schedule',
        Properties: { ScheduleExpression: 'rate(10 minutes)', Target: { Arn: { 'Fn::GetAtt': ['ResyncFn', 'Arn'] } } },
      },
    },
  },
  'fixture',
);

describe('readHttpApiRoutes', () => {
  it('follows each route through its integration to the function, with its authorization type', () => {
    expect(readHttpApiRoutes(template).map((r) => [r.routeKey, r.authorizationType, r.functionLogicalId, r.payloadFormatVersion])).toEqual([
      ['ANY /', 'AWS_IAM', 'ApiFn', '2.0'],
      ['ANY /{proxy+}', 'AWS_IAM', 'ApiFn', '2.0'],
    ]);
  });

  it.each([
    ['a route without an integration', { Properties: { RouteKey: 'ANY /', Target: 'integrations/none' } }, 'has no integration target'],
    ['an unknown authorization type', { Properties: { RouteKey: 'ANY /', AuthorizationType: 'MAGIC', Target: { 'Fn::Join': ['', ['integrations/', { Ref: 'Integration' }]] } } }, 'unknown AuthorizationType MAGIC'],
  ])('refuses %s', (_case, route, message) => {
    const broken = asTemplate({ Resources: { ...template.Resources, Bad: { Type: 'AWS::ApiGatewayV2::Route', ...route } } }, 'broken');
    expect(() => readHttpApiRoutes(broken)).toThrow(message);
  });
});

describe('matchRoute', () => {
  const route = (routeKey: string): HttpApiRoute => {
    const [method = '', path = ''] = routeKey.split(' ');
    return { logicalId: routeKey, routeKey, method, path, authorizationType: 'AWS_IAM', functionLogicalId: 'F', payloadFormatVersion: '2.0' };
  };
  const routes = [route('ANY /'), route('ANY /{proxy+}'), route('GET /apis/{group}'), route('GET /healthz'), route('POST /healthz')];

  it.each([
    ['GET', '/', 'ANY /'],
    ['POST', '/', 'ANY /'],
    ['GET', '/apis', 'ANY /{proxy+}'],
    ['GET', '/apis/cluster.x-k8s.io/v1beta2', 'ANY /{proxy+}'],
    ['GET', '/apis/cluster.x-k8s.io', 'GET /apis/{group}'],
    ['DELETE', '/apis/cluster.x-k8s.io', 'ANY /{proxy+}'],
    ['GET', '/healthz', 'GET /healthz'],
    ['POST', '/healthz', 'POST /healthz'],
  ])('%s %s → %s', (method, path, expected) => {
    expect(matchRoute(routes, method, path)?.routeKey).toBe(expected);
  });

  it('finds nothing when no route matches', () => {
    expect(matchRoute([route('GET /healthz')], 'GET', '/other')).toBeUndefined();
  });
});

describe('readScheduleTargets and functionCodeLocation', () => {
  it('names the function each schedule invokes', () => {
    expect(readScheduleTargets(template)).toEqual([{ logicalId: 'Schedule', expression: 'rate(10 minutes)', functionLogicalId: 'ResyncFn' }]);
  });

  it('reads the S3 location of a function and resolves the account in the bucket name', () => {
    const location = functionCodeLocation(template, 'ApiFn');
    expect(location.key).toBe('abc.zip');
    expect(resolvePseudo(location.bucket, '123456789012', 'us-east-1')).toBe('cdk-hnb659fds-assets-123456789012-us-east-1');
  });

  it('refuses a function whose code is not in S3', () => {
    expect(() => functionCodeLocation(template, 'ResyncFn')).toThrow('does not take its code from S3');
  });
});

describe('readSynthesizedStack', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  function cdkOut(withAsset: boolean): string {
    const dir = mkdtempSync(join(tmpdir(), 'capless-cdkout-'));
    dirs.push(dir);
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ artifacts: { S: { type: 'aws:cloudformation:stack', properties: { templateFile: 'S.template.json' } } } }));
    writeFileSync(join(dir, 'S.template.json'), JSON.stringify({ Resources: { Q: { Type: 'AWS::SQS::Queue' } } }));
    const destinations = { d: { bucketName: 'b', objectKey: 'h.zip' } };
    writeFileSync(join(dir, 'S.assets.json'), JSON.stringify({ files: { h: { source: { path: 'asset.h', packaging: 'zip' }, destinations } } }));
    if (withAsset) mkdirSync(join(dir, 'asset.h'));
    return dir;
  }

  it('reads the stack, its template and its assets', () => {
    const stack = readSynthesizedStack(cdkOut(true));
    expect(stack.stackName).toBe('S');
    expect(Object.keys(stack.template.Resources)).toEqual(['Q']);
    expect(stack.assets.map((a) => [a.hash, a.packaging, a.objectKey])).toEqual([['h', 'zip', 'h.zip']]);
  });

  it('names an asset missing from cdk.out', () => {
    expect(() => readSynthesizedStack(cdkOut(false))).toThrow(/asset h is missing from cdk.out: .*asset\.h/);
  });

  it('says to synthesize when there is no cloud assembly', () => {
    expect(() => readSynthesizedStack(join(tmpdir(), 'no-such-cdk-out'))).toThrow('run `npm run synth` first');
  });
});
