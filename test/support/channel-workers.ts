import { MessageChannel } from 'node:worker_threads';
import type { SpawnWorker, WorkerHandle } from '../../local/workers/reconcile-dispatcher.js';
import { serveReconciles, type WorkerDeps } from '../../local/workers/serve-reconciles.js';

/** A worker the test can kill: its in-flight requests are lost the way a crashed thread's are. */
export interface ChannelWorker extends WorkerHandle {
  crash(): void;
}

/**
 * Reconcile workers on MessageChannels in this thread: every request, store call, enqueue and
 * outcome is structured-cloned across a port exactly as with a thread, while the reconcilers
 * (a test's Probe) stay observable from the test.
 */
export function channelWorkers(deps: WorkerDeps): { spawn: SpawnWorker; spawned: ChannelWorker[] } {
  const spawned: ChannelWorker[] = [];
  const spawn: SpawnWorker = () => {
    const { port1, port2 } = new MessageChannel();
    const stopServing = serveReconciles(port2, deps);
    const exitListeners: Array<(error?: Error) => void> = [];
    let gone = false;
    const exit = (error?: Error) => {
      if (gone) return;
      gone = true;
      stopServing();
      port1.close();
      port2.close();
      for (const listener of exitListeners) listener(error);
    };
    const worker: ChannelWorker = {
      channel: port1,
      onExit: (listener) => {
        exitListeners.push(listener);
      },
      terminate: async () => exit(),
      crash: () => exit(new Error('crashed')),
    };
    spawned.push(worker);
    return worker;
  };
  return { spawn, spawned };
}
