import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterAll, inject } from 'vitest';
import { describeDynamoWorkLeases } from '../conformance/dynamo-work-leases.conformance.js';

const client = new DynamoDBClient({
  endpoint: inject('dynamodbEndpoint'),
  region: 'us-east-1',
  credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
});

afterAll(() => client.destroy());

describeDynamoWorkLeases('DynamoDB Local', () => client);
