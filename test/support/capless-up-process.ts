import { type ChildProcess, spawn } from 'node:child_process';
import { join, resolve } from 'node:path';

const repoRoot = resolve(import.meta.dirname, '../..');

export interface RunningCapless {
  child: ChildProcess;
  url: string;
}

/** Starts `capless up` as a real process (port 0: a free one) and waits for its "is up" line. */
export async function startCaplessUp(dataDir: string, port = 0, extraArgs: readonly string[] = []): Promise<RunningCapless> {
  const child = spawn(process.execPath, [join(repoRoot, 'bin/capless.mjs'), 'up', '--port', String(port), '--data-dir', dataDir, '--log-level', 'warn', ...extraArgs], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`capless up did not start in time; output:\n${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /API (https:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolveUrl(match[1]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`capless up exited with ${code}; output:\n${output}`));
    });
  });
  return { child, url };
}

/** Resolves with the exit code once the process has exited (at once if it already has). */
export function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((done) => {
    if (child.exitCode !== null || child.signalCode !== null) done(child.exitCode);
    else child.once('exit', (code) => done(code));
  });
}
