export { createObjectTable, type CreateObjectTableOptions } from './create-object-table.js';
export { DynamoObjectStore, type DynamoObjectStoreOptions } from './dynamo-object-store.js';
export { objectChangeFromStreamRecord, type StreamRecordLike } from './stream-record.js';
export * from './table-design.js';
