/**
 * The single-table key design (docs/adr/0001-single-table-design.md). Shared by the DynamoDB
 * adapter and the CDK stack, so it imports nothing.
 */
export const TABLE_KEYS = {
  partitionKey: 'pk',
  sortKey: 'sk',
} as const;

export const TABLE_INDEXES = {
  /** Objects of one cluster: gsi1pk = `<namespace>#<cluster-name>`. */
  byCluster: { name: 'byCluster', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
  /** Dependents of one owner: gsi2pk = owner uid. */
  byOwner: { name: 'byOwner', partitionKey: 'gsi2pk', sortKey: 'gsi2sk' },
  /** One kind across namespaces: gsi3pk = `<group>#<kind>`. */
  byKind: { name: 'byKind', partitionKey: 'gsi3pk', sortKey: 'gsi3sk' },
} as const;

/** Partition-key prefix of Secrets, so IAM (dynamodb:LeadingKeys) can keep them apart. */
export const SECRET_PARTITION_PREFIX = 'core#Secret#';

export const DEFAULT_TABLE_NAME = 'capless-objects';
