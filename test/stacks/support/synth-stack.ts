import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { projectRoot } from '../../../lib/stacks/functions/project-root.js';
import { CaplessStack, type CaplessStackProps } from '../../../lib/stacks/capless-stack.js';
import { type JsonRecord, recordAt } from '../../../shared/contracts/json.js';

/** The feature flags and context of cdk.json, so tests synthesize what `cdk synth` does. */
function cdkJsonContext(): JsonRecord {
  const parsed: unknown = JSON.parse(readFileSync(join(projectRoot(), 'cdk.json'), 'utf8'));
  return recordAt(parsed, 'context') ?? {};
}

/**
 * An App like the CLI's (cdk.json context). Bundling is skipped (`aws:cdk:bundling-stacks: []`)
 * unless `bundle` is set, and CDK's built-in CloudFormation validation is off: both only cost
 * time here (test/stacks/bundling.test.ts bundles for real).
 */
export function testApp(options: { bundle?: boolean; outdir?: string } = {}): App {
  return new App({
    context: { ...cdkJsonContext(), ...(options.bundle ? {} : { 'aws:cdk:bundling-stacks': [] }) },
    builtinCloudFormationValidation: false,
    outdir: options.outdir,
  });
}

export interface SynthesizedStack {
  readonly app: App;
  readonly stack: CaplessStack;
  readonly template: Template;
}

/** Builds and synthesizes one CaplessStack in a testApp. */
export function synthStack(props: CaplessStackProps = {}, options: { bundle?: boolean; outdir?: string } = {}): SynthesizedStack {
  const app = testApp(options);
  const stack = new CaplessStack(app, 'CaplessTest', props);
  return { app, stack, template: Template.fromStack(stack) };
}
