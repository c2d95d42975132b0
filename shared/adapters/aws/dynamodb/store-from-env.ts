import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoObjectStore } from './dynamo-object-store.js';
import { DEFAULT_TABLE_NAME } from './table-design.js';

/**
 * The object store a Lambda function uses: the table named by TABLE_NAME, the client created
 * once per container (module scope in the caller). AWS_ENDPOINT_URL_DYNAMODB or AWS_ENDPOINT_URL
 * point it at LocalStack or moto. SECRET_ACCESS=false says IAM keeps Secrets from this function.
 */
export function objectStoreFromEnv(env: NodeJS.ProcessEnv = process.env): DynamoObjectStore {
  const endpoint = env.AWS_ENDPOINT_URL_DYNAMODB ?? env.AWS_ENDPOINT_URL;
  const client = new DynamoDBClient(endpoint ? { endpoint } : {});
  return new DynamoObjectStore({
    client,
    tableName: env.TABLE_NAME ?? DEFAULT_TABLE_NAME,
    secretAccess: env.SECRET_ACCESS !== 'false',
  });
}
