/**
 * vitest globalSetup of the `aws` project: starts the emulators once and hands their endpoints to
 * the tests (`inject('dynamodbEndpoint')`, `inject('motoEndpoint')`). To add an emulator: start it
 * in `setup`, provide its endpoint, push its stop function onto `running`, and declare the key
 * below. Emulators start side by side; each one's start-up time is printed so its cost stays visible.
 */

import type { TestProject } from 'vitest/node';
import { dynamoDbLocalMissing, startDynamoDbLocal } from './dynamodb-local.js';
import { motoMissing, startMotoServer } from './moto-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamodbEndpoint: string;
    /** moto's server: EC2, Secrets Manager, DynamoDB and the rest on one endpoint. */
    motoEndpoint: string;
  }
}

const running: Array<() => Promise<void>> = [];

export async function setup(project: TestProject): Promise<void> {
  const missing = [dynamoDbLocalMissing(), motoMissing()].filter((reason) => reason !== undefined);
  if (missing.length > 0) throw new Error(`test:aws cannot start its emulators:\n- ${missing.join('\n- ')}`);
  const [dynamodb, moto] = await Promise.allSettled([timed('DynamoDB Local', startDynamoDbLocal), timed('moto server', startMotoServer)]);
  for (const started of [dynamodb, moto]) if (started.status === 'fulfilled') running.push(started.value.stop);
  if (dynamodb.status === 'rejected' || moto.status === 'rejected') {
    await teardown();
    const reasons = [dynamodb, moto].flatMap((started) => (started.status === 'rejected' ? [String(started.reason)] : []));
    throw new Error(`test:aws could not start its emulators:\n- ${reasons.join('\n- ')}`);
  }
  project.provide('dynamodbEndpoint', dynamodb.value.endpoint);
  project.provide('motoEndpoint', moto.value.endpoint);
}

export async function teardown(): Promise<void> {
  while (running.length > 0) await running.pop()?.();
}

async function timed<T>(name: string, start: () => Promise<T>): Promise<T> {
  const began = performance.now();
  const result = await start();
  console.info(`[aws-wire] ${name} answered after ${Math.round(performance.now() - began)} ms`);
  return result;
}
