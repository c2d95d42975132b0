import { DynamoDBClient, ScanCommand } from '@aws-sdk/client-dynamodb';
import dynalite from 'dynalite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createObjectTable } from '../../../shared/adapters/aws/dynamodb/create-object-table.js';
import { DynamoObjectStore } from '../../../shared/adapters/aws/dynamodb/dynamo-object-store.js';
import { SECRET_PARTITION_PREFIX, TABLE_INDEXES } from '../../../shared/adapters/aws/dynamodb/table-design.js';
import { LABEL_CLUSTER_NAME, ownerReferenceTo } from '../../../shared/contracts/object.js';

const server = dynalite({ createTableMs: 0, deleteTableMs: 0 });
let client: DynamoDBClient;
const tableName = 'secret-partitions';

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  client = new DynamoDBClient({ endpoint: `http://127.0.0.1:${port}`, region: 'us-east-1', credentials: { accessKeyId: 't', secretAccessKey: 't' } });
  await createObjectTable(client, tableName);
});

afterAll(async () => {
  client.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('Secret items in the indexes (IAM LeadingKeys must cover them)', () => {
  it('puts every index partition key of a Secret under the Secret prefix, and lists skip them without secret access', async () => {
    const store = new DynamoObjectStore({ client, tableName });
    const labels = { [LABEL_CLUSTER_NAME]: 'c1' };
    const owner = await store.create({ apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', metadata: { name: 'c1', labels }, spec: {} });
    await store.create({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'c1-ca', labels, ownerReferences: [ownerReferenceTo(owner)] }, data: { 'tls.key': 'eA==' } });
    await store.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c1-lock', labels, ownerReferences: [ownerReferenceTo(owner)] } });

    const { Items = [] } = await client.send(new ScanCommand({ TableName: tableName }));
    const secretItem = Items.find((item) => item.pk?.S?.startsWith(SECRET_PARTITION_PREFIX));
    for (const index of Object.values(TABLE_INDEXES)) {
      expect(secretItem?.[index.partitionKey]?.S?.startsWith(SECRET_PARTITION_PREFIX)).toBe(true);
    }

    const names = (objects: { metadata: { name: string } }[]) => objects.map((o) => o.metadata.name).sort();
    expect(names(await store.listByCluster('default', 'c1'))).toEqual(['c1', 'c1-ca', 'c1-lock']);
    expect(names(await store.listByOwner(owner.metadata.uid))).toEqual(['c1-ca', 'c1-lock']);
    expect((await store.list({ group: '', kind: 'Secret' })).items.map((o) => o.metadata.name)).toEqual(['c1-ca']);

    expect(names(await store.listByCluster('default', 'c1', { group: '', kind: 'Secret' }))).toEqual(['c1-ca']);
    expect(names(await store.listByCluster('default', 'c1', { group: '', kind: 'ConfigMap' }))).toEqual(['c1-lock']);

    const withoutSecrets = new DynamoObjectStore({ client, tableName, secretAccess: false });
    expect(await withoutSecrets.listByCluster('default', 'c1', { group: '', kind: 'Secret' })).toEqual([]);
    expect(names(await withoutSecrets.listByCluster('default', 'c1'))).toEqual(['c1', 'c1-lock']);
    expect(names(await withoutSecrets.listByOwner(owner.metadata.uid))).toEqual(['c1-lock']);
  });
});
