import type { CliIo } from '../../cli/io/cli-io.js';
import type { IoCommand } from '../../cli/io/define-command.js';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  /** How many times the command slept between polls. */
  sleeps: number;
}

export interface RunCliOptions {
  kubeconfigPath: string;
  cwd?: string;
  stdin?: string;
  isTTY?: boolean;
  /** Called instead of sleeping between polls (a test moves the world forward here); the n-th call gets n. */
  onSleep?: (n: number) => Promise<void> | void;
  /** The clock the command sees (ms); default Date.now. */
  now?: () => number;
}

/** Runs a CLI command in-process with captured output and a KUBECONFIG pointing at the test API. */
export async function runCli(command: IoCommand, args: string[], options: RunCliOptions): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  let sleeps = 0;
  const io: CliIo = {
    stdout: { write: (text: string) => (stdout += text), isTTY: options.isTTY ?? false },
    stderr: { write: (text: string) => (stderr += text) },
    readStdin: async () => options.stdin ?? '',
    env: { KUBECONFIG: options.kubeconfigPath },
    cwd: options.cwd ?? process.cwd(),
    now: options.now ?? (() => Date.now()),
    sleep: async () => {
      sleeps++;
      await options.onSleep?.(sleeps);
    },
    pollIntervalMs: 0,
  };
  const code = await command.runWith(args, io);
  return { code, stdout, stderr, sleeps };
}
