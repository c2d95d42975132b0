import { InMemoryAwsCloudFactory } from '../../../shared/adapters/memory/aws-cloud/in-memory-aws-cloud.js';
import { describeAwsCloudConformance } from '../../conformance/aws-cloud.conformance.js';

describeAwsCloudConformance('in-memory EC2 and Secrets Manager', async () => ({
  cloud: new InMemoryAwsCloudFactory().forRegion('eu-west-1'),
  region: 'eu-west-1',
  idempotentClientToken: true,
  imageId: 'ami-0123456789abcdef0',
}));

describeAwsCloudConformance('in-memory EC2 behaving like moto (ClientToken ignored)', async () => ({
  cloud: new InMemoryAwsCloudFactory({ honourClientToken: false }).forRegion('us-east-1'),
  region: 'us-east-1',
  idempotentClientToken: false,
  imageId: 'ami-0123456789abcdef0',
}));
