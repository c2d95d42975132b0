/** Starts moto's server through moto_server_lambda_off.py: event source mappings listed, never fired. */

import { join } from 'node:path';
import { type RunningEmulator, startEmulator } from '../setup/emulator-process.js';
import { motoMissing } from '../setup/moto-server.js';

const LAUNCHER = join(import.meta.dirname, 'moto_server_lambda_off.py');

/** `enforceIamFor`: moto service names whose requests must pass IAM (signature and policies). */
export async function startMotoWithoutLambdaPollers(enforceIamFor: readonly string[] = []): Promise<RunningEmulator> {
  const missing = motoMissing();
  if (missing) throw new Error(missing);
  return startEmulator({
    name: "moto's server (Lambda pollers off)",
    command: 'python3',
    args: (port) => [LAUNCHER, '-H', '127.0.0.1', '-p', String(port)],
    env: { ...process.env, PYTHONUNBUFFERED: '1', CAPLESS_MOTO_ENFORCE_IAM: enforceIamFor.join(',') },
    answers: async (endpoint) => {
      const response = await fetch(`${endpoint}/moto-api/`);
      await response.arrayBuffer();
      return response.ok;
    },
    probeDescription: 'GET /moto-api/',
    startupTimeoutMs: 60_000,
  });
}

/** Forgets every resource of every service (between scenarios). */
export async function resetMoto(endpoint: string): Promise<void> {
  const response = await fetch(`${endpoint}/moto-api/reset`, { method: 'POST' });
  if (!response.ok) throw new Error(`moto reset: ${response.status} ${await response.text()}`);
}
