import { z } from 'zod';
import { isRecord } from '../../shared/contracts/json.js';
import type { KubeObject } from '../../shared/contracts/object.js';
import type { ListQuery, ObjectStore } from '../../shared/ports/object-store.js';
import type { StoreMethod } from './protocol.js';

const key = z.object({ group: z.string(), kind: z.string().min(1), namespace: z.string().min(1), name: z.string().min(1) });
const groupKind = z.object({ group: z.string(), kind: z.string().min(1) });
/** The store validates every write in full (schemas, names, sizes); here only the shape it is called with. */
const object = z.custom<KubeObject>(
  (v) => isRecord(v) && typeof v.apiVersion === 'string' && typeof v.kind === 'string' && isRecord(v.metadata) && typeof v.metadata.name === 'string',
  'a Kubernetes object',
);
const listQuery = z.custom<ListQuery>((v) => isRecord(v) && typeof v.group === 'string' && typeof v.kind === 'string', 'a list query');
const deleteOptions = z.object({
  resourceVersion: z.string().optional(),
  propagationPolicy: z.enum(['Background', 'Foreground', 'Orphan']).optional(),
});

const argSchemas = {
  create: z.tuple([object]),
  get: z.tuple([key]),
  update: z.tuple([object]),
  updateStatus: z.tuple([object]),
  updateWithStatus: z.tuple([object]),
  delete: z.union([z.tuple([key]), z.tuple([key, deleteOptions])]),
  list: z.tuple([listQuery]),
  listByCluster: z.union([z.tuple([z.string(), z.string()]), z.tuple([z.string(), z.string(), z.union([groupKind, z.array(groupKind)])])]),
  listByOwner: z.tuple([z.string()]),
} satisfies Record<StoreMethod, z.ZodType>;

/** Runs one store call a worker asked for on the dispatcher's store; a malformed call is refused, not run. */
export async function callStore(store: ObjectStore, method: StoreMethod, args: unknown[]): Promise<unknown> {
  switch (method) {
    case 'create':
      return store.create(...argSchemas.create.parse(args));
    case 'get':
      return store.get(...argSchemas.get.parse(args));
    case 'update':
      return store.update(...argSchemas.update.parse(args));
    case 'updateStatus':
      return store.updateStatus(...argSchemas.updateStatus.parse(args));
    case 'updateWithStatus':
      return store.updateWithStatus(...argSchemas.updateWithStatus.parse(args));
    case 'delete': {
      const [k, options] = argSchemas.delete.parse(args);
      return store.delete(k, options ? stripUndefined(options) : undefined);
    }
    case 'list':
      return store.list(...argSchemas.list.parse(args));
    case 'listByCluster': {
      const [namespace, cluster, kind] = argSchemas.listByCluster.parse(args);
      return store.listByCluster(namespace, cluster, kind);
    }
    case 'listByOwner':
      return store.listByOwner(...argSchemas.listByOwner.parse(args));
  }
}

/** exactOptionalPropertyTypes: an absent option stays absent. */
function stripUndefined<T extends Record<string, unknown>>(value: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as { [K in keyof T]: Exclude<T[K], undefined> };
}
