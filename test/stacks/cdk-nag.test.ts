import { App, Stack } from 'aws-cdk-lib';
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

// Checked once per configuration at load time (the first run loads every rule module).
const iamFindings = violations(synthStack().stack);
const jwtFindings = violations(
  synthStack({ controlPlane: { authMode: 'jwt', jwtIssuer: 'https://issuer.example.com', jwtAudience: ['capless'] } }).stack,
);

describe('cdk-nag AwsSolutions', () => {
  it('finds nothing in the IAM-auth control plane', () => {
    expect(iamFindings).toEqual([]);
  });

  it('finds nothing in the JWT-auth control plane', () => {
    expect(jwtFindings).toEqual([]);
  });

  it('does find problems where there are some (the check is live)', () => {
    const stack = new Stack(new App(), 'Careless');
    new Queue(stack, 'Plain', { enforceSSL: false });
    expect(violations(stack).map((v) => v.split(' ')[0])).toEqual(expect.arrayContaining(['AwsSolutions-SQS3', 'AwsSolutions-SQS4']));
  });
});
