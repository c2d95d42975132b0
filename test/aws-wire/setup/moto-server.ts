/**
 * Starts moto's server (a Python process emulating many AWS services on one endpoint) for the
 * aws-wire tests: EC2 and Secrets Manager for the providers, and DynamoDB as a second external
 * endpoint for `capless up --endpoint`.
 */

import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { type RunningEmulator, startEmulator } from './emulator-process.js';

/** The moto release the tests were written against (pin it in CI's install step). */
export const MOTO_VERSION = '5.2.5';
const PYTHON = 'python3';
const STARTUP_TIMEOUT_MS = 60_000;
const INSTALL_HINT = `pip install "moto[server]==${MOTO_VERSION}"`;

/** Python modules moto's server needs: moto itself and the `server` extra's web stack. */
const SERVER_MODULES = ['moto', 'flask', 'flask_cors'] as const;

export type RunningMotoServer = RunningEmulator;

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
  return startEmulator({
    name: "moto's server",
    command: PYTHON,
    args: (port) => ['-m', 'moto.server', '-H', '127.0.0.1', '-p', String(port)],
    // moto's default AMIs plus CAPA images (owner 819546954734) for the AWS provider's AMI lookup.
    env: { ...process.env, PYTHONUNBUFFERED: '1', MOTO_AMIS_PATH: fileURLToPath(new URL('./moto-amis.json', import.meta.url)) },
    answers: async (endpoint) => {
      const response = await fetch(`${endpoint}/moto-api/`);
      await response.arrayBuffer();
      return response.ok;
    },
    probeDescription: 'GET /moto-api/',
    startupTimeoutMs: STARTUP_TIMEOUT_MS,
  });
}
