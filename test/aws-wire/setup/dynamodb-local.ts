/** Starts DynamoDB Local (a Java process) for the aws-wire tests. */

import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { freePort } from './free-port.js';

export const DYNAMODB_LOCAL_DIR = resolve(import.meta.dirname, '../../../.tools/dynamodb-local');
const JAR = 'DynamoDBLocal.jar';
const STARTUP_TIMEOUT_MS = 60_000;

export interface RunningDynamoDbLocal {
  endpoint: string;
  stop(): Promise<void>;
}

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
  const port = await freePort();
  const child = spawn(
    'java',
    ['-Xmx256m', '-XX:TieredStopAtLevel=1', '-jar', JAR, '-inMemory', '-sharedDb', '-disableTelemetry', '-port', String(port)],
    { cwd: DYNAMODB_LOCAL_DIR, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const endpoint = `http://127.0.0.1:${port}`;
  try {
    await waitUntilAnswering(endpoint, child, () => stderr);
  } catch (error) {
    await stopProcess(child);
    throw error;
  }
  return { endpoint, stop: () => stopProcess(child) };
}

async function waitUntilAnswering(endpoint: string, child: ChildProcess, stderr: () => string): Promise<void> {
  const client = new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  try {
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`DynamoDB Local exited with code ${child.exitCode}: ${stderr()}`);
      try {
        await client.send(new ListTablesCommand({}));
        return;
      } catch {
        await new Promise((resolveDelay) => setTimeout(resolveDelay, 200));
      }
    }
    throw new Error(`DynamoDB Local did not answer ListTables at ${endpoint} within ${STARTUP_TIMEOUT_MS} ms: ${stderr()}`);
  } finally {
    client.destroy();
  }
}

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolveStop) => {
    child.once('exit', () => resolveStop());
    child.kill('SIGTERM');
  });
}
