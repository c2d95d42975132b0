// Loads the capless CLI fast: the TypeScript sources are bundled once with esbuild (packages stay
// external, every command in a chunk of its own) into node_modules/.cache/capless/<checkout>/, and
// rebuilt only when a source file it was built from changed. Without esbuild, or when the cache
// cannot be written, the sources run through tsx as before. Plain JavaScript: it runs before any
// TypeScript can.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const ENTRY = join(ROOT, 'cli', 'main.ts');
// Threads of their own (local/thread-entry.ts finds them next to its chunk): the reconcile workers
// of `capless up --workers N` and the embedded store.
const THREAD_ENTRIES = {
  'reconcile-worker': join(ROOT, 'local', 'workers', 'reconcile-worker.ts'),
  'dynalite-thread': join(ROOT, 'local', 'dynalite-thread.ts'),
};
// Bumped whenever the bundle's shape changes (its entries), so a bundle built by an older loader is rebuilt.
const BUNDLE_FORMAT = 3;
const CACHE = join(ROOT, 'node_modules', '.cache', 'capless', createHash('sha256').update(ROOT).digest('hex').slice(0, 16));
const STAMP = join(CACHE, 'inputs.json');

/** Each input's size and modification time when the bundle was built. */
function fresh() {
  try {
    const inputs = JSON.parse(readFileSync(STAMP, 'utf8'));
    if (inputs.format !== BUNDLE_FORMAT) return undefined;
    for (const [file, mtimeMs, size] of inputs.files) {
      const stat = statSync(join(ROOT, file));
      if (stat.mtimeMs !== mtimeMs || stat.size !== size) return undefined;
    }
    return join(CACHE, inputs.out);
  } catch {
    return undefined;
  }
}

/**
 * Drops all but the three newest builds: a process started from an older one (a long-running
 * `capless up`) may still load chunks from it, so the last few stay.
 */
function pruneBuilds(current) {
  const builds = readdirSync(CACHE)
    .filter((name) => name.startsWith('build-') && join(CACHE, name) !== current)
    .map((name) => ({ dir: join(CACHE, name), mtime: statSync(join(CACHE, name)).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime);
  for (const { dir } of builds.slice(2)) rmSync(dir, { recursive: true, force: true });
}

async function build() {
  const esbuild = await import('esbuild');
  const out = `build-${process.pid}-${Date.now()}`;
  const outdir = join(CACHE, out);
  const result = await esbuild.build({
    entryPoints: { main: ENTRY, ...THREAD_ENTRIES },
    absWorkingDir: ROOT,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    outdir,
    metafile: true,
    logLevel: 'silent',
    sourcemap: 'inline',
  });
  const files = Object.keys(result.metafile.inputs).map((file) => {
    const stat = statSync(join(ROOT, file));
    return [file, stat.mtimeMs, stat.size];
  });
  const stampTmp = `${STAMP}.${process.pid}`;
  writeFileSync(stampTmp, JSON.stringify({ format: BUNDLE_FORMAT, out: join(out, 'main.js'), files }));
  renameSync(stampTmp, STAMP);
  pruneBuilds(outdir);
  return join(outdir, 'main.js');
}

/** The CLI's `main`, from the bundle when it can be had, else from the sources through tsx. */
export async function loadCli() {
  let bundle = fresh();
  if (!bundle) {
    try {
      mkdirSync(CACHE, { recursive: true });
      bundle = await build();
    } catch {
      bundle = undefined;
    }
  }
  if (bundle) return import(pathToFileURL(bundle).href);
  const { register } = await import('tsx/esm/api');
  register();
  return import(pathToFileURL(ENTRY).href);
}
