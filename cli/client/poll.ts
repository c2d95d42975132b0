import type { CliIo } from '../io/cli-io.js';
import { progressLine } from '../output/progress.js';

export interface PollStep {
  done: boolean;
  /** What the live progress line says now. */
  progress: string;
}

/** Polls `check` every io.pollIntervalMs until it is done or `timeoutMs` passes; shows a live line on a TTY. Returns whether it finished. */
export async function pollUntil(io: CliIo, timeoutMs: number, check: () => Promise<PollStep>): Promise<boolean> {
  const started = io.now();
  const progress = progressLine(io);
  for (;;) {
    const step = await check();
    const elapsed = Math.round((io.now() - started) / 1_000);
    if (step.done) {
      progress.clear();
      return true;
    }
    if (io.now() - started >= timeoutMs) {
      if (io.stdout.isTTY) progress.done(`${step.progress} (${elapsed}s)`);
      return false;
    }
    progress.update(io.stdout.isTTY ? `${step.progress} (${elapsed}s)` : step.progress);
    await io.sleep(io.pollIntervalMs);
  }
}
