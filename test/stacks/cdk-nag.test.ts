import { RECONCILED_KINDS } from '../../lib/stacks/reconciled-kinds.js';
import { App, Stack, Validations } from 'aws-cdk-lib';
import { isRecord } from '../../shared/contracts/json.js';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import { AwsSolutionsChecks } from 'cdk-nag';
import { describe, expect, it } from 'vitest';
import { synthStack } from './support/synth-stack.js';

/**
 * cdk-nag 3 is a policy-validation plugin: `validateScope` runs the AwsSolutions rules over the
 * construct tree and skips findings acknowledged with `Validations.of(x).acknowledge({id, reason})`
 * (each acknowledgment in lib/stacks carries its reason). No Aspects, no NagSuppressions in v3.
 */
function violations(scope: Stack): string[] {
  return new AwsSolutionsChecks().validateScope(scope).violations.map((v) => `${v.ruleName} ${v.description}`);
}

/** Every acknowledged rule in the tree: `{ path, id, reason }`. */
function acknowledgments(scope: Stack): { path: string; id: string; reason: unknown }[] {
  return scope.node.findAll().flatMap((construct) =>
    construct.node.metadata
      .filter((entry) => entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY && isRecord(entry.data))
      .flatMap((entry) => Object.entries(isRecord(entry.data) ? entry.data : {}))
      .map(([id, reason]) => ({ path: construct.node.path, id: id.replace(/^annotation::/i, ''), reason })),
  );
}

const controlPlane = synthStack().stack;
const jwtControlPlane = synthStack({ controlPlane: { authMode: 'jwt', jwtIssuer: 'https://issuer.example.com', jwtAudience: ['capless'] } }).stack;

// Checked once per configuration at load time (the first run loads every rule module).
const iamFindings = violations(controlPlane);
const jwtFindings = violations(jwtControlPlane);

/** Wildcard resources a provider declared in its registration (reviewed there, with their conditions). */
const PROVIDER_DECLARED_WILDCARDS = RECONCILED_KINDS.flatMap((k) => k.permissions ?? [])
  .flatMap((p) => p.resources)
  .filter((r) => r !== '*' && r.includes('*'))
  .map((r) => `AwsSolutions-IAM5[Resource::${r}]`);

describe('cdk-nag AwsSolutions', () => {
  it('finds nothing in the IAM-auth control plane', () => {
    expect(iamFindings).toEqual([]);
  });

  it('finds nothing in the JWT-auth control plane', () => {
    expect(jwtFindings).toEqual([]);
  });

  it('acknowledges only reviewed rules, each with its reason', () => {
    const acks = acknowledgments(controlPlane);
    expect(new Set(acks.map((a) => a.id.replace(/\[Resource::<.*>:\*\]$/, '[Resource::<fn>:*]')))).toEqual(
      new Set(['AwsSolutions-SQS3', 'AwsSolutions-IAM5[Resource::*]', 'AwsSolutions-L1', 'AwsSolutions-IAM5[Resource::<fn>:*]', 'AwsSolutions-SMG4', 'AwsSolutions-APIG4', ...PROVIDER_DECLARED_WILDCARDS]),
    );
    for (const ack of acks) expect(typeof ack.reason === 'string' && ack.reason.length > 40, `${ack.path} ${ack.id}`).toBe(true);
  });

  it("acknowledges in JWT mode only the front door's reviewed CloudFront rules beyond those (ADR 0125)", () => {
    const ids = (stack: Stack) => new Set(acknowledgments(stack).map((a) => `${a.path} ${a.id}`));
    const iamIds = ids(controlPlane);
    const added = acknowledgments(jwtControlPlane).filter((a) => !iamIds.has(`${a.path} ${a.id}`));
    expect(added.map((a) => a.id).sort()).toEqual(['AwsSolutions-CFR1', 'AwsSolutions-CFR2', 'AwsSolutions-CFR3', 'AwsSolutions-CFR4']);
    for (const ack of added) expect(typeof ack.reason === 'string' && ack.reason.length > 40, `${ack.path} ${ack.id}`).toBe(true);
  });

  it('does find problems where there are some (the check is live)', () => {
    const stack = new Stack(new App(), 'Careless');
    new Queue(stack, 'Plain', { enforceSSL: false });
    expect(violations(stack).map((v) => v.split(' ')[0])).toEqual(expect.arrayContaining(['AwsSolutions-SQS3', 'AwsSolutions-SQS4']));
  });
});
