/** What a command touches outside itself, so tests can run commands in-process and capture output. */
export interface CliIo {
  stdout: { write(text: string): unknown; isTTY?: boolean };
  stderr: { write(text: string): unknown };
  readStdin(): Promise<string>;
  env: Record<string, string | undefined>;
  cwd: string;
  /** Milliseconds since the epoch. */
  now(): number;
  sleep(ms: number): Promise<void>;
  /** How often long operations (wait, delete --wait) poll the API. */
  pollIntervalMs: number;
}

export const processIo: CliIo = {
  stdout: process.stdout,
  stderr: process.stderr,
  readStdin: async () => {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
    return Buffer.concat(chunks).toString('utf8');
  },
  env: process.env,
  cwd: process.cwd(),
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  pollIntervalMs: 1_000,
};
