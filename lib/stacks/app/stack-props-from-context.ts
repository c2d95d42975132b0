import { Duration } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { CaplessStackProps } from '../capless-stack.js';
import type { AuthMode } from '../props/control-plane-props.js';
import { ControlPlanePropsError } from '../props/resolve-control-plane-props.js';

/** CDK context keys bin/app.ts reads (`cdk synth -c capless:authMode=jwt …` or cdk.json "context"). */
export const CONTEXT_KEYS = {
  stackName: 'capless:stackName',
  account: 'capless:account',
  region: 'capless:region',
  authMode: 'capless:authMode',
  jwtIssuer: 'capless:jwtIssuer',
  jwtAudience: 'capless:jwtAudience',
  apiFrontDoor: 'capless:apiFrontDoor',
  resyncPeriodMinutes: 'capless:resyncPeriodMinutes',
  logRetentionDays: 'capless:logRetentionDays',
} as const;

export const DEFAULT_STACK_NAME = 'Capless';

export interface AppStack {
  readonly stackName: string;
  readonly props: CaplessStackProps;
}

type ReadContext = (key: string) => unknown;

function optionalString(read: ReadContext, key: string): string | undefined {
  const value = read(key);
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') throw new ControlPlanePropsError(`context ${key} must be a string; got ${JSON.stringify(value)}`);
  return value;
}

function optionalNumber(read: ReadContext, key: string): number | undefined {
  const value = read(key);
  if (value === undefined || value === null || value === '') return undefined;
  const number = typeof value === 'string' ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isFinite(number)) {
    throw new ControlPlanePropsError(`context ${key} must be a number; got ${JSON.stringify(value)}`);
  }
  return number;
}

function authMode(read: ReadContext): AuthMode | undefined {
  const value = optionalString(read, CONTEXT_KEYS.authMode);
  if (value === undefined || value === 'iam' || value === 'jwt') return value;
  throw new ControlPlanePropsError(`context ${CONTEXT_KEYS.authMode} must be 'iam' or 'jwt'; got '${value}'`);
}

/** A comma-separated string (from `-c`) or a list of strings (from cdk.json). */
function audience(read: ReadContext): string[] | undefined {
  const value = read(CONTEXT_KEYS.jwtAudience);
  if (value === undefined || value === null || value === '') return undefined;
  const items = typeof value === 'string' ? value.split(',') : value;
  if (!Array.isArray(items) || !items.every((item): item is string => typeof item === 'string')) {
    throw new ControlPlanePropsError(`context ${CONTEXT_KEYS.jwtAudience} must be a string or a list of strings; got ${JSON.stringify(value)}`);
  }
  return items.map((item) => item.trim()).filter((item) => item !== '');
}

/** `true`/`false` (from `-c`, a string) or a boolean (from cdk.json). */
function optionalBoolean(read: ReadContext, key: string): boolean | undefined {
  const value = read(key);
  if (value === undefined || value === null || value === '') return undefined;
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  throw new ControlPlanePropsError(`context ${key} must be true or false; got ${JSON.stringify(value)}`);
}

function isRetentionDays(days: number): days is RetentionDays {
  return typeof RetentionDays[days] === 'string';
}

function logRetention(read: ReadContext): RetentionDays | undefined {
  const days = optionalNumber(read, CONTEXT_KEYS.logRetentionDays);
  if (days === undefined) return undefined;
  if (!isRetentionDays(days)) {
    throw new ControlPlanePropsError(`context ${CONTEXT_KEYS.logRetentionDays} must be a CloudWatch Logs retention (1, 3, 5, 7, 14, 30, 60, 90, … 3653); got ${days}`);
  }
  return days;
}

/**
 * The stack bin/app.ts builds, from CDK context (see CONTEXT_KEYS) and the environment the CDK
 * CLI sets (CDK_DEFAULT_ACCOUNT/REGION). Nothing set means: stack `Capless`, environment-agnostic,
 * the construct's defaults.
 */
export function stackPropsFromContext(read: ReadContext, env: Readonly<Record<string, string | undefined>> = {}): AppStack {
  const account = optionalString(read, CONTEXT_KEYS.account) ?? env.CDK_DEFAULT_ACCOUNT;
  const region = optionalString(read, CONTEXT_KEYS.region) ?? env.CDK_DEFAULT_REGION;
  const resyncMinutes = optionalNumber(read, CONTEXT_KEYS.resyncPeriodMinutes);
  return {
    stackName: optionalString(read, CONTEXT_KEYS.stackName) ?? DEFAULT_STACK_NAME,
    props: {
      env: account !== undefined || region !== undefined ? { account, region } : undefined,
      description: 'capless: Cluster API control plane on AWS serverless',
      controlPlane: {
        authMode: authMode(read),
        jwtIssuer: optionalString(read, CONTEXT_KEYS.jwtIssuer),
        jwtAudience: audience(read),
        apiFrontDoor: optionalBoolean(read, CONTEXT_KEYS.apiFrontDoor),
        resyncPeriod: resyncMinutes === undefined ? undefined : Duration.minutes(resyncMinutes),
        logRetention: logRetention(read),
      },
    },
  };
}
