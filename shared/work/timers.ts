/** Scheduling as a port, so queues can be driven by a manual clock in tests. */
export interface Timers {
  /** Runs `callback` after `ms`; returns a function that cancels it. */
  schedule(ms: number, callback: () => void): () => void;
}

/** Real timers. They do not keep the process alive: whatever owns the queue does. */
export const systemTimers: Timers = {
  schedule(ms, callback) {
    const handle = setTimeout(callback, Math.max(0, ms));
    handle.unref();
    return () => clearTimeout(handle);
  },
};
