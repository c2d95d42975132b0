/**
 * The single-table key design (docs/adr/0001-single-table-design.md). Shared by the DynamoDB
 * adapter and the CDK stack, so it imports nothing.
 *
 * Object items: pk = `<group|core>#<Kind>#<namespace>`, sk = `<name>`.
 * Owner-edge items (extra owners of multi-owner objects): pk = `owner#<uid>`.
 * Other item families (the work queue's `work#…`) must use a lowercase prefix ending in '#'
 * listed in NON_OBJECT_PARTITION_PREFIXES; stream consumers skip them by key shape.
 */
export const TABLE_KEYS = {
  partitionKey: 'pk',
  sortKey: 'sk',
} as const;

export const TABLE_INDEXES = {
  /** Objects of one cluster: gsi1pk = `<namespace>#<cluster-name>`, gsi1sk = `<group|core>#<Kind>#<name>`. */
  byCluster: { name: 'byCluster', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
  /** Dependents of one owner: gsi2pk = uid of the controller (else first) owner, gsi2sk = object key. */
  byOwner: { name: 'byOwner', partitionKey: 'gsi2pk', sortKey: 'gsi2sk' },
  /** One kind across namespaces: gsi3pk = `<group|core>#<Kind>`, gsi3sk = `<namespace>#<name>`. */
  byKind: { name: 'byKind', partitionKey: 'gsi3pk', sortKey: 'gsi3sk' },
} as const;

/** Partition-key prefix of Secrets, so IAM (dynamodb:LeadingKeys) can keep them apart. */
export const SECRET_PARTITION_PREFIX = 'core#Secret#';

/** Partition-key prefix of owner-edge items (one per extra ownerReference). */
export const OWNER_EDGE_PARTITION_PREFIX = 'owner#';

/** Partition-key prefixes of items that are not objects. */
export const NON_OBJECT_PARTITION_PREFIXES = [OWNER_EDGE_PARTITION_PREFIX, 'work#'] as const;

export const DEFAULT_TABLE_NAME = 'capless-objects';

const OBJECT_PARTITION_KEY = /^[a-z0-9.-]+#[A-Za-z0-9]+#[a-z0-9-]+$/;

/** True when a partition key names an object item (not a queue, edge or other bookkeeping item). */
export function isObjectPartitionKey(pk: string): boolean {
  return OBJECT_PARTITION_KEY.test(pk) && !NON_OBJECT_PARTITION_PREFIXES.some((prefix) => pk.startsWith(prefix));
}
