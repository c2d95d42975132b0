import { readFileSync } from 'node:fs';
import { Match, type Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { WATCH_JWT_ENV } from '../../functions/watch/watch-authentication.js';
import { API_ORIGIN_ID, WATCH_ORIGIN_ID, WATCH_ORIGIN_PATH, WATCH_ORIGIN_READ_TIMEOUT, WATCH_ROUTER_CODE_PATH } from '../../lib/stacks/api/front-door/api-front-door.js';
import { recordAt, valueAt } from '../../shared/contracts/json.js';
import { synthStack } from './support/synth-stack.js';

/** The API front door (ADR 0125): what the template holds in each auth mode. Nothing here runs CloudFront. */
const JWT = { authMode: 'jwt', jwtIssuer: 'https://issuer.example.com', jwtAudience: ['capless', 'kubectl'] } as const;
const jwt = synthStack({ controlPlane: JWT }).template;
const iam = synthStack().template;
const jwtWithout = synthStack({ controlPlane: { ...JWT, apiFrontDoor: false } }).template;

/** CloudFront's managed policies, by their documented ids. */
const CACHING_DISABLED = '4135ea2d-6df8-44a3-9df3-4b5a84be39ad';
const ALL_VIEWER_EXCEPT_HOST_HEADER = 'b689b0a8-53d0-40ab-baf2-68738e2966ac';

function distributionConfig(template: Template): Record<string, unknown> {
  const [distribution] = Object.values(template.findResources('AWS::CloudFront::Distribution'));
  const config = recordAt(distribution, 'Properties', 'DistributionConfig');
  if (!config) throw new Error('no distribution');
  return config;
}

function origins(template: Template): Record<string, unknown>[] {
  const list = valueAt(distributionConfig(template), 'Origins');
  return Array.isArray(list) ? list.filter((o): o is Record<string, unknown> => typeof o === 'object' && o !== null) : [];
}

function cloudFrontPermissions(template: Template): Record<string, unknown>[] {
  return Object.values(template.findResources('AWS::Lambda::Permission'))
    .map((resource) => recordAt(resource, 'Properties') ?? {})
    .filter((properties) => valueAt(properties, 'Principal') === 'cloudfront.amazonaws.com');
}

function watchFunctionEnv(template: Template): unknown {
  const [watch] = Object.entries(template.findResources('AWS::Lambda::Function')).filter(([id]) => id.startsWith('ControlPlaneWatchFunction'));
  return valueAt(watch?.[1], 'Properties', 'Environment', 'Variables');
}

describe('the API front door (ADR 0125)', () => {
  it.each([
    ['IAM mode (the default)', 0, iam],
    ['JWT mode', 1, jwt],
    ['JWT mode with apiFrontDoor: false', 0, jwtWithout],
  ])('in %s: %i distribution', (_mode, count, template) => {
    template.resourceCountIs('AWS::CloudFront::Distribution', count);
    template.resourceCountIs('AWS::CloudFront::Function', count);
    template.resourceCountIs('AWS::CloudFront::OriginAccessControl', count);
    expect(cloudFrontPermissions(template)).toHaveLength(2 * count);
    expect(Object.keys(template.findOutputs('ApiFrontDoorUrl'))).toHaveLength(count);
  });

  it('sends every method to the HTTP API over TLS, uncached, with every viewer header but Host', () => {
    const config = distributionConfig(jwt);
    expect(valueAt(config, 'DefaultCacheBehavior')).toMatchObject({
      TargetOriginId: API_ORIGIN_ID,
      AllowedMethods: ['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE'],
      ViewerProtocolPolicy: 'https-only',
      CachePolicyId: CACHING_DISABLED,
      OriginRequestPolicyId: ALL_VIEWER_EXCEPT_HOST_HEADER,
      FunctionAssociations: [{ EventType: 'viewer-request', FunctionARN: { 'Fn::GetAtt': [expect.stringMatching(/^ControlPlaneFrontDoorWatchRouter/), 'FunctionARN'] } }],
    });
    const api = origins(jwt).find((o) => o.Id === API_ORIGIN_ID);
    expect(api).toMatchObject({ CustomOriginConfig: { OriginProtocolPolicy: 'https-only', OriginSSLProtocols: ['TLSv1.2'] } });
    expect(JSON.stringify(api?.DomainName)).toMatch(/ControlPlaneApiHttpApi.*execute-api/);
  });

  it('reaches the watch function URL through origin access control that signs every request, with a read timeout above the heartbeat', () => {
    const watch = origins(jwt).find((o) => o.Id === WATCH_ORIGIN_ID);
    expect(watch).toMatchObject({
      CustomOriginConfig: { OriginProtocolPolicy: 'https-only', OriginReadTimeout: WATCH_ORIGIN_READ_TIMEOUT.toSeconds() },
      OriginAccessControlId: { 'Fn::GetAtt': [expect.stringMatching(/^ControlPlaneFrontDoorWatchAccess/), 'Id'] },
    });
    expect(JSON.stringify(watch?.DomainName)).toMatch(/ControlPlaneWatchFunctionFunctionUrl/);
    jwt.hasResourceProperties('AWS::CloudFront::OriginAccessControl', {
      OriginAccessControlConfig: { OriginAccessControlOriginType: 'lambda', SigningBehavior: 'always', SigningProtocol: 'sigv4' },
    });
    jwt.hasResourceProperties('AWS::Lambda::Url', { AuthType: 'AWS_IAM', InvokeMode: 'RESPONSE_STREAM' });
    expect(valueAt(distributionConfig(jwt), 'CacheBehaviors')).toEqual([
      expect.objectContaining({ PathPattern: WATCH_ORIGIN_PATH, TargetOriginId: WATCH_ORIGIN_ID, AllowedMethods: ['GET', 'HEAD'], CachePolicyId: CACHING_DISABLED }),
    ]);
  });

  it('lets only this distribution invoke the watch URL, and only through the URL', () => {
    const onlyThisDistribution = {
      'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':cloudfront::', { Ref: 'AWS::AccountId' }, ':distribution/', { Ref: expect.stringMatching(/^ControlPlaneFrontDoorDistribution/) }]],
    };
    const watchFunction = { 'Fn::GetAtt': [expect.stringMatching(/^ControlPlaneWatchFunctionFunctionUrl/), 'FunctionArn'] };
    expect(cloudFrontPermissions(jwt)).toEqual(
      expect.arrayContaining([
        { Principal: 'cloudfront.amazonaws.com', Action: 'lambda:InvokeFunctionUrl', FunctionName: watchFunction, SourceArn: onlyThisDistribution },
        { Principal: 'cloudfront.amazonaws.com', Action: 'lambda:InvokeFunction', InvokedViaFunctionUrl: true, FunctionName: watchFunction, SourceArn: onlyThisDistribution },
      ]),
    );
  });

  it('runs the watch router file as a cloudfront-js-2.0 viewer-request function', () => {
    jwt.hasResourceProperties('AWS::CloudFront::Function', {
      AutoPublish: true,
      FunctionCode: readFileSync(WATCH_ROUTER_CODE_PATH, 'utf8'),
      FunctionConfig: Match.objectLike({ Runtime: 'cloudfront-js-2.0' }),
    });
  });

  it.each<[string, Template, Record<string, string | undefined>]>([
    ['JWT mode', jwt, { [WATCH_JWT_ENV.issuer]: JWT.jwtIssuer, [WATCH_JWT_ENV.audience]: JSON.stringify(JWT.jwtAudience) }],
    ['IAM mode', iam, {}],
  ])('tells the watch function how to authenticate in %s', (_mode, template, expected) => {
    const env = watchFunctionEnv(template);
    for (const name of Object.values(WATCH_JWT_ENV)) expect(valueAt(env, name)).toBe(expected[name]);
  });

  it('outputs the front door URL for kubectl', () => {
    const output = valueAt(jwt.findOutputs('ApiFrontDoorUrl'), 'ApiFrontDoorUrl', 'Value');
    expect(JSON.stringify(output)).toMatch(/https:\/\/.*ControlPlaneFrontDoorDistribution.*DomainName/);
  });
});
