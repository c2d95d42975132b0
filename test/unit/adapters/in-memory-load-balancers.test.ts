import { InMemoryAwsCloudFactory } from '../../../shared/adapters/memory/aws-cloud/in-memory-aws-cloud.js';
import { describeLoadBalancersConformance } from '../../conformance/load-balancers.conformance.js';

describeLoadBalancersConformance('in-memory ELBv2', async () => ({
  cloud: new InMemoryAwsCloudFactory().forRegion('eu-west-1'),
  imageId: 'ami-0123456789abcdef0',
}));
