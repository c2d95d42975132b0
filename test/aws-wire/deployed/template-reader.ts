/**
 * What the runtime needs from the synthesized template that moto does not deploy: the HTTP API's
 * routes (route key, authorization type, the function behind each through its integration) and
 * the schedules' targets. Pure; unknown shapes are errors naming the resource.
 */

import { isRecord, stringAt, valueAt } from '../../../shared/contracts/json.js';
import type { Template } from './deploy-plan.js';
import { referencesIn } from './template-refs.js';

export type AuthorizationType = 'NONE' | 'AWS_IAM' | 'JWT' | 'CUSTOM';

export interface HttpApiRoute {
  logicalId: string;
  /** `ANY /{proxy+}`, `GET /items`, `$default` … */
  routeKey: string;
  method: string;
  /** The path pattern: `/`, `/{proxy+}`, `/items/{id}`. */
  path: string;
  authorizationType: AuthorizationType;
  /** Logical id of the function behind the route's AWS_PROXY integration. */
  functionLogicalId: string;
  payloadFormatVersion: string;
}

export interface ScheduleTarget {
  logicalId: string;
  expression: string;
  functionLogicalId: string;
}

function resourcesOfType(template: Template, type: string) {
  return Object.entries(template.Resources).filter(([, r]) => r.Type === type);
}

function authorizationTypeOf(value: string | undefined, logicalId: string): AuthorizationType {
  const type = value ?? 'NONE';
  if (type === 'NONE' || type === 'AWS_IAM' || type === 'JWT' || type === 'CUSTOM') return type;
  throw new Error(`route ${logicalId}: unknown AuthorizationType ${type}`);
}

export function readHttpApiRoutes(template: Template): HttpApiRoute[] {
  return resourcesOfType(template, 'AWS::ApiGatewayV2::Route').map(([logicalId, route]) => {
    const routeKey = stringAt(route.Properties, 'RouteKey');
    if (!routeKey) throw new Error(`route ${logicalId} has no RouteKey`);
    const integrationId = referencesIn(valueAt(route.Properties, 'Target')).find((id) => template.Resources[id]?.Type === 'AWS::ApiGatewayV2::Integration');
    const integration = integrationId ? template.Resources[integrationId] : undefined;
    if (!integrationId || !integration) throw new Error(`route ${logicalId} (${routeKey}) has no integration target`);
    if (stringAt(integration.Properties, 'IntegrationType') !== 'AWS_PROXY') throw new Error(`integration ${integrationId} is not AWS_PROXY`);
    const functionLogicalId = referencesIn(valueAt(integration.Properties, 'IntegrationUri')).find((id) => template.Resources[id]?.Type === 'AWS::Lambda::Function');
    if (!functionLogicalId) throw new Error(`integration ${integrationId} does not target a function of the stack`);
    const [method = '', path = ''] = routeKey === '$default' ? ['ANY', '/{proxy+}'] : routeKey.split(' ');
    return {
      logicalId,
      routeKey,
      method,
      path,
      authorizationType: authorizationTypeOf(stringAt(route.Properties, 'AuthorizationType'), logicalId),
      functionLogicalId,
      payloadFormatVersion: stringAt(integration.Properties, 'PayloadFormatVersion') ?? '1.0',
    };
  });
}

/**
 * The route API Gateway picks for a request: the most specific match wins (exact paths over
 * `{param}` over `{proxy+}`, a method over ANY), as documented for HTTP APIs
 * (https://docs.aws.amazon.com/apigateway/latest/developerguide/http-api-develop-routes.html#http-api-develop-routes.evaluation).
 */
export function matchRoute(routes: readonly HttpApiRoute[], method: string, path: string): HttpApiRoute | undefined {
  const candidates = routes.filter((r) => (r.method === 'ANY' || r.method === method.toUpperCase()) && pathMatches(r.path, path));
  const score = (r: HttpApiRoute) => {
    const greedy = r.path.includes('+}') ? 0 : 2;
    const params = r.path.includes('{') ? 0 : 1;
    return greedy * 10 + params * 5 + (r.method === 'ANY' ? 0 : 1);
  };
  return candidates.sort((a, b) => score(b) - score(a))[0];
}

function pathMatches(pattern: string, path: string): boolean {
  const want = pattern.split('/').filter((s) => s !== '');
  const got = path.split('/').filter((s) => s !== '');
  for (let i = 0; i < want.length; i++) {
    const segment = want[i] ?? '';
    if (/^\{[^}]+\+\}$/.test(segment)) return got.length > i;
    if (got[i] === undefined) return false;
    if (!/^\{[^}]+\}$/.test(segment) && segment !== got[i]) return false;
  }
  return got.length === want.length;
}

export function readScheduleTargets(template: Template): ScheduleTarget[] {
  return resourcesOfType(template, 'AWS::Scheduler::Schedule').map(([logicalId, schedule]) => {
    const functionLogicalId = referencesIn(valueAt(schedule.Properties, 'Target', 'Arn')).find((id) => template.Resources[id]?.Type === 'AWS::Lambda::Function');
    if (!functionLogicalId) throw new Error(`schedule ${logicalId} does not target a function of the stack`);
    return { logicalId, expression: stringAt(schedule.Properties, 'ScheduleExpression') ?? '', functionLogicalId };
  });
}

/** Where CloudFormation takes a function's code from: `{S3Bucket, S3Key}` (S3Bucket may be a Fn::Sub). */
export function functionCodeLocation(template: Template, logicalId: string): { bucket: string; key: string } {
  const code = valueAt(template.Resources[logicalId]?.Properties, 'Code');
  const bucketValue = valueAt(code, 'S3Bucket');
  const bucket = typeof bucketValue === 'string' ? bucketValue : isRecord(bucketValue) ? stringAt(bucketValue, 'Fn::Sub') : undefined;
  const key = stringAt(code, 'S3Key');
  if (!bucket || !key) throw new Error(`function ${logicalId} does not take its code from S3 (Code: ${JSON.stringify(code)})`);
  return { bucket, key };
}

export interface AsyncInvokeConfig {
  functionLogicalId: string;
  /** Retries after a function error (Lambda's default is 2). */
  maxRetries: number;
  /** Logical id of the queue an invocation goes to when it failed for the last time. */
  onFailureQueueLogicalId: string | undefined;
}

/** Each function's asynchronous invocation settings (`AWS::Lambda::EventInvokeConfig`: moto has no model for it). */
export function readAsyncInvokeConfigs(template: Template): AsyncInvokeConfig[] {
  return resourcesOfType(template, 'AWS::Lambda::EventInvokeConfig').map(([logicalId, config]) => {
    const functionLogicalId = referencesIn(valueAt(config.Properties, 'FunctionName')).find((id) => template.Resources[id]?.Type === 'AWS::Lambda::Function');
    if (!functionLogicalId) throw new Error(`EventInvokeConfig ${logicalId} does not name a function of the stack`);
    const destination = referencesIn(valueAt(config.Properties, 'DestinationConfig', 'OnFailure', 'Destination'));
    const onFailureQueueLogicalId = destination.find((id) => template.Resources[id]?.Type === 'AWS::SQS::Queue');
    if (destination.length > 0 && !onFailureQueueLogicalId) throw new Error(`EventInvokeConfig ${logicalId}: only SQS on-failure destinations are emulated`);
    const retries = valueAt(config.Properties, 'MaximumRetryAttempts');
    return { functionLogicalId, maxRetries: typeof retries === 'number' ? retries : 2, onFailureQueueLogicalId };
  });
}
