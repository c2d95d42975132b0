/**
 * vitest globalSetup of the `aws` project: starts the emulators once and hands their endpoints to
 * the tests (`inject('dynamodbEndpoint')`). To add an emulator: start it in `setup`, provide its
 * endpoint, push its stop function onto `running`, and declare the key below.
 */

import type { TestProject } from 'vitest/node';
import { startDynamoDbLocal } from './dynamodb-local.js';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamodbEndpoint: string;
  }
}

const running: Array<() => Promise<void>> = [];

export async function setup(project: TestProject): Promise<void> {
  const dynamodb = await startDynamoDbLocal();
  running.push(dynamodb.stop);
  project.provide('dynamodbEndpoint', dynamodb.endpoint);
}

export async function teardown(): Promise<void> {
  while (running.length > 0) await running.pop()?.();
}
