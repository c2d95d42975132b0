import { type ChildProcess, spawn } from 'node:child_process';
import { freePort } from './free-port.js';

export interface RunningEmulator {
  endpoint: string;
  stop(): Promise<void>;
}

export interface EmulatorSpec {
  /** For error messages, e.g. "DynamoDB Local". */
  name: string;
  command: string;
  args: (port: number) => string[];
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** True once the emulator answers at `endpoint`; a throw counts as "not yet". */
  answers: (endpoint: string) => Promise<boolean>;
  /** What the probe asks, for the timeout message. */
  probeDescription: string;
  startupTimeoutMs: number;
}

/** A local AWS emulator as a child process on a free loopback port, started and ready, or an error with its stderr. */
export async function startEmulator(spec: EmulatorSpec): Promise<RunningEmulator> {
  const port = await freePort();
  const child = spawn(spec.command, spec.args(port), {
    ...(spec.cwd ? { cwd: spec.cwd } : {}),
    env: spec.env ?? process.env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    // Some emulators log every request: keep the head, enough to explain a failed start.
    if (stderr.length < 4_000) stderr += chunk.toString();
  });
  const endpoint = `http://127.0.0.1:${port}`;
  try {
    await waitUntilAnswering(spec, endpoint, child, () => stderr);
  } catch (error) {
    await stopProcess(child);
    throw error;
  }
  return { endpoint, stop: () => stopProcess(child) };
}

async function waitUntilAnswering(spec: EmulatorSpec, endpoint: string, child: ChildProcess, stderr: () => string): Promise<void> {
  const deadline = Date.now() + spec.startupTimeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${spec.name} exited with code ${child.exitCode}: ${stderr()}`);
    if (await spec.answers(endpoint).catch(() => false)) return;
    await new Promise((resolveDelay) => setTimeout(resolveDelay, 150));
  }
  throw new Error(`${spec.name} did not answer ${spec.probeDescription} at ${endpoint} within ${spec.startupTimeoutMs} ms: ${stderr()}`);
}

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolveStop) => {
    child.once('exit', () => resolveStop());
    child.kill('SIGTERM');
  });
}
