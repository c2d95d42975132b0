import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { CaplessStack, type CaplessStackProps } from '../../../lib/stacks/capless-stack.js';

export interface SynthesizedStack {
  readonly app: App;
  readonly stack: CaplessStack;
  readonly template: Template;
}

/**
 * Builds and synthesizes one CaplessStack. Bundling is skipped (`aws:cdk:bundling-stacks: []`)
 * unless `bundle` is set, and CDK's built-in CloudFormation validation is off: both only cost
 * time here (test/stacks/bundling.test.ts bundles for real).
 */
export function synthStack(props: CaplessStackProps = {}, options: { bundle?: boolean; outdir?: string } = {}): SynthesizedStack {
  const app = new App({
    context: options.bundle ? {} : { 'aws:cdk:bundling-stacks': [] },
    builtinCloudFormationValidation: false,
    outdir: options.outdir,
  });
  const stack = new CaplessStack(app, 'CaplessTest', props);
  return { app, stack, template: Template.fromStack(stack) };
}
