#!/usr/bin/env node
// The CDK app: builds the capless stack from context (lib/stacks/app/stack-props-from-context.ts).
import { App } from 'aws-cdk-lib';
import { stackPropsFromContext } from '../lib/stacks/app/stack-props-from-context.js';
import { CaplessStack } from '../lib/stacks/capless-stack.js';

const app = new App();
const { stackName, props } = stackPropsFromContext((key) => app.node.tryGetContext(key), process.env);
new CaplessStack(app, stackName, props);
