import { mkdir } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import dynalite from 'dynalite';

export interface EmbeddedDynamoDb {
  endpoint: string;
  close(): Promise<void>;
}

/**
 * dynalite, in this process, persisted under `<data-dir>/dynamodb` (LevelDB): the DynamoDB the
 * production adapter talks to in embedded mode. `persist: false` keeps it in memory (benchmarks).
 */
export async function startEmbeddedDynamoDb(dataDir: string, options: { persist?: boolean } = {}): Promise<EmbeddedDynamoDb> {
  const persist = options.persist ?? true;
  const path = join(dataDir, 'dynamodb');
  if (persist) await mkdir(path, { recursive: true });
  const server = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0, ...(persist ? { path } : {}) });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? (address satisfies AddressInfo).port : 0;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
      }),
  };
}
