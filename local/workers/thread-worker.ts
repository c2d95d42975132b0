import { Worker } from 'node:worker_threads';
import type { SpawnWorker, WorkerHandle } from './reconcile-dispatcher.js';
import type { ReconcileWorkerData } from './reconcile-worker.js';

/**
 * Starts reconcile workers as threads. From the sources (tests, `npm run bench` through tsx) the
 * entry is the TypeScript file, loaded through tsx's loader registered inside the thread; from
 * the CLI bundle (bin/cli-bundle.mjs) it is the bundle's own `reconcile-worker.js` next to this chunk.
 */
export function threadWorkers(data: ReconcileWorkerData): SpawnWorker {
  const fromSources = import.meta.url.endsWith('.ts');
  return () => {
    const worker = fromSources
      ? new Worker(tsxEntry(new URL('./reconcile-worker.ts', import.meta.url).href), { eval: true, workerData: data })
      : new Worker(new URL('./reconcile-worker.js', import.meta.url), { workerData: data });
    return threadHandle(worker);
  };
}

/** An eval'd ES module that registers tsx in this thread, then loads the entry. */
function tsxEntry(url: string): string {
  return `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(url)}); });`;
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
