import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { isRecord } from '../../shared/contracts/json.js';

/**
 * The kubectl binaries the real-client tests run, once each: `kubectl` on PATH and Debian's
 * `kubernetes-client` unpacked into `.tools/kubernetes-client` by scripts/install-system-deps.sh.
 * `KUBECTL` picks one binary instead.
 */
export const DEBIAN_KUBECTL = resolve(import.meta.dirname, '../../.tools/kubernetes-client/usr/bin/kubectl');
export const KUBECTL_BINARIES = process.env.KUBECTL ? [process.env.KUBECTL] : ['kubectl', ...(existsSync(DEBIAN_KUBECTL) ? [DEBIAN_KUBECTL] : [])];

const run = promisify(execFile);

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

export function toolEnv(home: string, kubeconfig: string): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, KUBECONFIG: kubeconfig };
}

/** Runs a command to its end; a non-zero exit is a result, not an exception. */
export async function runTool(binary: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs = 60_000): Promise<CommandResult> {
  try {
    const { stdout, stderr } = await run(binary, args, { env, timeout: timeoutMs });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = isRecord(error) ? error : {};
    return { code: typeof failed.code === 'number' ? failed.code : 1, stdout: String(failed.stdout ?? ''), stderr: String(failed.stderr ?? error) };
  }
}

/** A long-running command (a watch) whose output is read while it runs. */
export interface RunningTool {
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code when the process ends. */
  exited: Promise<number>;
  stop(): void;
}

export function startTool(binary: string, args: string[], env: NodeJS.ProcessEnv): RunningTool {
  const child: ChildProcess = spawn(binary, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    out += chunk.toString('utf8');
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    err += chunk.toString('utf8');
  });
  const exited = new Promise<number>((resolvePromise) => child.on('close', (code) => resolvePromise(code ?? -1)));
  return { stdout: () => out, stderr: () => err, exited, stop: () => void child.kill('SIGTERM') };
}
