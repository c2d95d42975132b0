import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const LOCK_FILE = 'package-lock.json';

/**
 * The repository root: the nearest folder above this module holding package-lock.json. Works
 * from the TypeScript sources (tsx, vitest) and from a compiled copy under dist/.
 */
export function projectRoot(from: string = dirname(fileURLToPath(import.meta.url))): string {
  let dir = from;
  while (!existsSync(join(dir, LOCK_FILE))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`cannot find ${LOCK_FILE} above ${from}: capless functions bundle from the repository`);
    dir = parent;
  }
  return dir;
}

export function lockFilePath(root: string = projectRoot()): string {
  return join(root, LOCK_FILE);
}
