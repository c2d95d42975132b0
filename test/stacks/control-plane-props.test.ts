import { Duration, Lazy } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { describe, expect, it } from 'vitest';
import { stackPropsFromContext } from '../../lib/stacks/app/stack-props-from-context.js';
import type { CaplessControlPlaneProps } from '../../lib/stacks/props/control-plane-props.js';
import { ControlPlanePropsError, resolveControlPlaneProps } from '../../lib/stacks/props/resolve-control-plane-props.js';
import { RECONCILED_KINDS } from '../../lib/stacks/reconciled-kinds.js';

describe('resolveControlPlaneProps', () => {
  it('fills in the documented defaults', () => {
    const resolved = resolveControlPlaneProps();
    expect(resolved).toMatchObject({
      authMode: 'iam',
      jwtAudience: [],
      logRetention: RetentionDays.ONE_MONTH,
      reconciledKinds: RECONCILED_KINDS,
      maxReceiveCount: 5,
      reconcilerMaxConcurrency: 5,
    });
    // ADR 0110: hourly; watches carry every store change, the resync only catches outside drift.
    expect(resolved.resyncPeriod.toMinutes()).toBe(60);
  });

  it('accepts a complete JWT configuration', () => {
    expect(resolveControlPlaneProps({ authMode: 'jwt', jwtIssuer: 'https://id.example.com', jwtAudience: ['a'] }).authMode).toBe('jwt');
  });

  it.each<[string, CaplessControlPlaneProps, boolean]>([
    ['IAM mode', {}, false],
    ['JWT mode', { authMode: 'jwt', jwtIssuer: 'https://id.example.com', jwtAudience: ['a'] }, true],
    ['JWT mode without it', { authMode: 'jwt', jwtIssuer: 'https://id.example.com', jwtAudience: ['a'], apiFrontDoor: false }, false],
  ])('puts the API front door in %s: %s', (_mode, props, frontDoor) => {
    expect(resolveControlPlaneProps(props).apiFrontDoor).toBe(frontDoor);
  });

  it('accepts an issuer only known at deploy time (a token)', () => {
    const issuer = Lazy.string({ produce: () => 'https://id.example.com' });
    expect(resolveControlPlaneProps({ authMode: 'jwt', jwtIssuer: issuer, jwtAudience: ['a'] }).jwtIssuer).toBe(issuer);
  });

  it.each<[string, CaplessControlPlaneProps, RegExp]>([
    ['jwt without issuer', { authMode: 'jwt', jwtAudience: ['a'] }, /needs jwtIssuer, an https URL/],
    ['jwt with an http issuer', { authMode: 'jwt', jwtIssuer: 'http://id.example.com', jwtAudience: ['a'] }, /got 'http:\/\/id\.example\.com'/],
    ['jwt without audience', { authMode: 'jwt', jwtIssuer: 'https://id.example.com' }, /non-empty jwtAudience/],
    ['iam with a jwt issuer', { jwtIssuer: 'https://id.example.com' }, /apply only to authMode 'jwt'/],
    ['iam with the API front door', { apiFrontDoor: true }, /apiFrontDoor needs authMode 'jwt'/],
    ['resync under a minute', { resyncPeriod: Duration.seconds(30) }, /whole number of minutes, at least 1; got 30 s/],
    ['resync of fractional minutes', { resyncPeriod: Duration.seconds(90) }, /got 90 s/],
    ['maxReceiveCount 0', { maxReceiveCount: 0 }, /maxReceiveCount must be an integer from 1 to 1000; got 0/],
    ['reconcilerMaxConcurrency 1', { reconcilerMaxConcurrency: 1 }, /from 2 to 1000 \(Lambda's limits\); got 1/],
    ['no kinds', { reconciledKinds: [] }, /reconciledKinds is empty/],
    [
      'a kind name twice',
      { reconciledKinds: [...RECONCILED_KINDS, { group: 'example.com', kind: 'Machine', needsSecrets: false }] },
      /names a kind twice \(Machine\)/,
    ],
  ])('fails if %s', (_name, props, message) => {
    expect(() => resolveControlPlaneProps(props)).toThrow(ControlPlanePropsError);
    expect(() => resolveControlPlaneProps(props)).toThrow(message);
  });
});

describe('stackPropsFromContext', () => {
  const read = (context: Record<string, unknown>) => (key: string) => context[key];

  it('builds an environment-agnostic stack named Capless with construct defaults when nothing is set', () => {
    const { stackName, props } = stackPropsFromContext(read({}));
    expect(stackName).toBe('Capless');
    expect(props.env).toBeUndefined();
    expect(props.controlPlane).toEqual({
      authMode: undefined,
      jwtIssuer: undefined,
      jwtAudience: undefined,
      apiFrontDoor: undefined,
      resyncPeriod: undefined,
      logRetention: undefined,
    });
  });

  it('takes account and region from the CDK CLI environment, context first', () => {
    expect(stackPropsFromContext(read({}), { CDK_DEFAULT_ACCOUNT: '111111111111', CDK_DEFAULT_REGION: 'eu-west-1' }).props.env).toEqual({
      account: '111111111111',
      region: 'eu-west-1',
    });
    expect(stackPropsFromContext(read({ 'capless:region': 'us-east-2' }), { CDK_DEFAULT_REGION: 'eu-west-1' }).props.env).toEqual({
      account: undefined,
      region: 'us-east-2',
    });
  });

  it.each<[string, Record<string, unknown>, CaplessControlPlaneProps]>([
    ['strings from -c', { 'capless:authMode': 'jwt', 'capless:jwtIssuer': 'https://id.example.com', 'capless:jwtAudience': 'a, b' }, {
      authMode: 'jwt',
      jwtIssuer: 'https://id.example.com',
      jwtAudience: ['a', 'b'],
    }],
    ['a list from cdk.json', { 'capless:jwtAudience': ['a'] }, { jwtAudience: ['a'] }],
    ['the front door switched off from -c', { 'capless:apiFrontDoor': 'false' }, { apiFrontDoor: false }],
    ['the front door from cdk.json', { 'capless:apiFrontDoor': true }, { apiFrontDoor: true }],
    ['log retention days', { 'capless:logRetentionDays': '90' }, { logRetention: RetentionDays.THREE_MONTHS }],
    ['log retention as a number', { 'capless:logRetentionDays': 7 }, { logRetention: RetentionDays.ONE_WEEK }],
  ])('reads %s', (_name, context, expected) => {
    expect(stackPropsFromContext(read(context)).props.controlPlane).toMatchObject(expected);
  });

  it('reads the resync period in minutes', () => {
    expect(stackPropsFromContext(read({ 'capless:resyncPeriodMinutes': '30' })).props.controlPlane?.resyncPeriod?.toMinutes()).toBe(30);
  });

  it.each<[string, Record<string, unknown>, RegExp]>([
    ['an unknown auth mode', { 'capless:authMode': 'none' }, /capless:authMode must be 'iam' or 'jwt'; got 'none'/],
    ['a retention CloudWatch does not offer', { 'capless:logRetentionDays': '8' }, /capless:logRetentionDays must be a CloudWatch Logs retention .*; got 8/],
    ['a resync period that is not a number', { 'capless:resyncPeriodMinutes': 'often' }, /capless:resyncPeriodMinutes must be a number; got "often"/],
    ['an audience of numbers', { 'capless:jwtAudience': [1] }, /capless:jwtAudience must be a string or a list of strings/],
    ['a front door that is not a boolean', { 'capless:apiFrontDoor': 'yes' }, /capless:apiFrontDoor must be true or false; got "yes"/],
    ['a stack name that is not a string', { 'capless:stackName': 3 }, /capless:stackName must be a string; got 3/],
  ])('fails on %s', (_name, context, message) => {
    expect(() => stackPropsFromContext(read(context))).toThrow(message);
  });
});
