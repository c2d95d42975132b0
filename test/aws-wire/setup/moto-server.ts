/**
 * Starts moto's server (a Python process emulating many AWS services on one endpoint) for the
 * aws-wire tests: EC2 and Secrets Manager for the providers, and DynamoDB as a second external
 * endpoint for `capless up --endpoint`.
 */

import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { freePort } from './free-port.js';

/** The moto release the tests were written against (pin it in CI's install step). */
export const MOTO_VERSION = '5.2.5';
const PYTHON = 'python3';
const STARTUP_TIMEOUT_MS = 60_000;
const INSTALL_HINT = `pip install "moto[server]==${MOTO_VERSION}"`;

/** Python modules moto's server needs: moto itself and the `server` extra's web stack. */
const SERVER_MODULES = ['moto', 'flask', 'flask_cors'] as const;

export interface RunningMotoServer {
  endpoint: string;
  stop(): Promise<void>;
}

/**
 * What is missing to run moto's server, with how to fix it; undefined when it can run. `python`
 * is the interpreter command and its leading arguments (default `python3`).
 */
export function motoMissing(python: readonly [string, ...string[]] = [PYTHON]): string | undefined {
  const [command, ...args] = python;
  const version = spawnSync(command, [...args, '--version'], { stdio: 'ignore' });
  if (version.error || version.status !== 0) {
    return `moto's server needs Python 3 on PATH as \`${command}\`: install it with \`apt-get install -y python3 python3-pip\`, then \`${INSTALL_HINT}\`.`;
  }
  const probe = spawnSync(
    command,
    [...args, '-c', `import importlib.util as u; print(' '.join(m for m in ${JSON.stringify(SERVER_MODULES)} if u.find_spec(m) is None))`],
    { encoding: 'utf8' },
  );
  const absent = probe.status === 0 ? probe.stdout.trim() : 'moto';
  if (absent !== '') {
    return `moto's server is not installed for ${command} (missing Python modules: ${absent}): run \`${INSTALL_HINT}\`.`;
  }
  return undefined;
}

/** Spawns `python3 -m moto.server` on a free loopback port and waits until it answers. */
export async function startMotoServer(): Promise<RunningMotoServer> {
  const missing = motoMissing();
  if (missing) throw new Error(missing);
  const port = await freePort();
  const child = spawn(PYTHON, ['-m', 'moto.server', '-H', '127.0.0.1', '-p', String(port)], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, PYTHONUNBUFFERED: '1' },
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    // Flask logs every request on stderr: keep only the head, enough to explain a failed start.
    if (stderr.length < 4_000) stderr += chunk.toString();
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
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`moto's server exited with code ${child.exitCode}: ${stderr()}`);
    try {
      const response = await fetch(`${endpoint}/moto-api/`);
      await response.arrayBuffer();
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolveDelay) => setTimeout(resolveDelay, 100));
  }
  throw new Error(`moto's server did not answer GET /moto-api/ at ${endpoint} within ${STARTUP_TIMEOUT_MS} ms: ${stderr()}`);
}

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolveStop) => {
    child.once('exit', () => resolveStop());
    child.kill('SIGTERM');
  });
}
