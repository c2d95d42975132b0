import { Worker } from 'node:worker_threads';

/** The modules capless starts as threads of their own, by their path under local/ without extension. */
export type ThreadEntry = 'workers/reconcile-worker' | 'dynalite-thread';

/**
 * Starts one of capless's thread entries. From the sources (tests, `npm run bench` through tsx)
 * the entry is the TypeScript file, loaded through tsx's loader registered inside the thread;
 * from the CLI bundle (bin/cli-bundle.mjs) it is the bundle's own `<name>.js`, next to this chunk.
 */
export function startThread(entry: ThreadEntry, workerData: unknown): Worker {
  if (import.meta.url.endsWith('.ts')) {
    const url = new URL(`./${entry}.ts`, import.meta.url).href;
    const source = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(url)}); });`;
    return new Worker(source, { eval: true, workerData });
  }
  const name = entry.slice(entry.lastIndexOf('/') + 1);
  return new Worker(new URL(`./${name}.js`, import.meta.url), { workerData });
}
