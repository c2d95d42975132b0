/** The kinds of Cluster API Provider AWS that capless serves (v1beta2 only: CAPA no longer serves v1beta1). */

import type { KindInfo } from '../../kinds.js';

export const AWS_GROUP = 'infrastructure.cluster.x-k8s.io';

function awsKind(kind: string, plural: string, statusSubresource: boolean): KindInfo {
  return { group: AWS_GROUP, kind, plural, versions: ['v1beta2'], namespaced: true, statusSubresource };
}

export const AWS_CLUSTER_KIND = { group: AWS_GROUP, kind: 'AWSCluster' } as const;
export const AWS_MACHINE_KIND = { group: AWS_GROUP, kind: 'AWSMachine' } as const;
export const AWS_MACHINE_TEMPLATE_KIND = { group: AWS_GROUP, kind: 'AWSMachineTemplate' } as const;

export const AWS_KINDS: readonly KindInfo[] = [
  awsKind('AWSCluster', 'awsclusters', true),
  awsKind('AWSClusterTemplate', 'awsclustertemplates', false),
  awsKind('AWSMachine', 'awsmachines', true),
  awsKind('AWSMachineTemplate', 'awsmachinetemplates', true),
];
