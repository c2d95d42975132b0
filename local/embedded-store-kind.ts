import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { OBJECT_JOURNAL_FILE } from './file-object-store.js';

/** The embedded stores `capless up` can run on (ADR 0131). */
export const EMBEDDED_STORE_KINDS = ['file', 'dynalite'] as const;
export type EmbeddedStoreKind = (typeof EMBEDDED_STORE_KINDS)[number];

export function isEmbeddedStoreKind(value: string): value is EmbeddedStoreKind {
  return EMBEDDED_STORE_KINDS.some((kind) => kind === value);
}

/**
 * `file`, unless the data dir already holds a dynalite store (LevelDB's CURRENT file under
 * `dynamodb/`) and no object journal: a data dir made before ADR 0131 keeps its objects.
 */
export function defaultEmbeddedStore(dataDir: string, persist: boolean): EmbeddedStoreKind {
  if (!persist) return 'file';
  const hasDynalite = existsSync(join(dataDir, 'dynamodb', 'CURRENT'));
  return hasDynalite && !existsSync(join(dataDir, OBJECT_JOURNAL_FILE)) ? 'dynalite' : 'file';
}
