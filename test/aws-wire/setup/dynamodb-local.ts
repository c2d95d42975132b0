/** Starts DynamoDB Local (a Java process) for the aws-wire tests. */

import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { type RunningEmulator, startEmulator } from './emulator-process.js';

export const DYNAMODB_LOCAL_DIR = resolve(import.meta.dirname, '../../../.tools/dynamodb-local');
const JAR = 'DynamoDBLocal.jar';
const STARTUP_TIMEOUT_MS = 60_000;

export type RunningDynamoDbLocal = RunningEmulator;

/** What is missing to run DynamoDB Local, with how to fix it; undefined when it can run. */
export function dynamoDbLocalMissing(): string | undefined {
  const java = spawnSync('java', ['-version'], { stdio: 'ignore' });
  if (java.error || java.status !== 0) {
    return 'DynamoDB Local needs Java (17+) on PATH: install it with `apt-get install -y openjdk-17-jre-headless`.';
  }
  if (!existsSync(join(DYNAMODB_LOCAL_DIR, JAR))) {
    return `DynamoDB Local is not installed (${join(DYNAMODB_LOCAL_DIR, JAR)} is missing): run \`sh scripts/install-dynamodb-local.sh\`.`;
  }
  return undefined;
}

export async function startDynamoDbLocal(): Promise<RunningDynamoDbLocal> {
  const missing = dynamoDbLocalMissing();
  if (missing) throw new Error(missing);
  return startEmulator({
    name: 'DynamoDB Local',
    command: 'java',
    args: (port) => ['-Xmx256m', '-XX:TieredStopAtLevel=1', '-jar', JAR, '-inMemory', '-sharedDb', '-disableTelemetry', '-port', String(port)],
    cwd: DYNAMODB_LOCAL_DIR,
    answers: listsTables,
    probeDescription: 'ListTables',
    startupTimeoutMs: STARTUP_TIMEOUT_MS,
  });
}

async function listsTables(endpoint: string): Promise<boolean> {
  const client = new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });
  try {
    await client.send(new ListTablesCommand({}));
    return true;
  } finally {
    client.destroy();
  }
}
