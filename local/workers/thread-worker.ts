import type { Worker } from 'node:worker_threads';
import { startThread } from '../thread-entry.js';
import type { SpawnWorker, WorkerHandle } from './reconcile-dispatcher.js';
import type { ReconcileWorkerData } from './reconcile-worker.js';

/** Starts reconcile workers as threads (local/workers/reconcile-worker.ts). */
export function threadWorkers(data: ReconcileWorkerData): SpawnWorker {
  return () => threadHandle(startThread('workers/reconcile-worker', data));
}

function threadHandle(worker: Worker): WorkerHandle {
  let exitError: Error | undefined;
  worker.on('error', (error) => {
    exitError = error;
  });
  return {
    channel: worker,
    onExit: (listener) => {
      worker.once('exit', (code) => listener(exitError ?? (code === 0 ? undefined : new Error(`exit code ${code}`))));
    },
    terminate: async () => {
      await worker.terminate();
    },
  };
}
