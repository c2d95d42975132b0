import type { Logger } from '../ports/logger.js';
import type { Timers } from './timers.js';

export interface PeriodicRunOptions {
  intervalSeconds: number;
  run: () => Promise<void>;
  /** Checked at each tick: false stops the schedule. */
  active: () => boolean;
  timers: Timers;
  logger: Logger;
  /** Names the run in the error it logs. */
  name: string;
}

/**
 * Runs `run` at a fixed interval (the work queue's resync). A run still going when the next is
 * due is not doubled; a failed run is logged and the schedule goes on. Returns the cancel.
 */
export function schedulePeriodicRun(options: PeriodicRunOptions): () => void {
  if (options.intervalSeconds <= 0) return () => {};
  let running = false;
  let cancel: () => void = () => {};
  const tick = (): void => {
    if (!options.active()) return;
    cancel = options.timers.schedule(options.intervalSeconds * 1000, tick);
    if (running) return;
    running = true;
    options
      .run()
      .catch((error: unknown) => options.logger.error(`${options.name} failed`, { error: error instanceof Error ? error.message : String(error) }))
      .finally(() => {
        running = false;
      });
  };
  cancel = options.timers.schedule(options.intervalSeconds * 1000, tick);
  return () => cancel();
}
