import { Validations } from 'aws-cdk-lib';
import { Grant, type IGrantable } from 'aws-cdk-lib/aws-iam';
import type { IConstruct } from 'constructs';
import type { ProviderPermission } from '../../../shared/contracts/provider-contract.js';

/**
 * Grants a reconciler the permissions its provider declared (shared/contracts: actions,
 * resources, tag conditions as data), one statement each. This is how a provider gets cloud
 * access without hand edits to the construct.
 */
export function grantProviderPermissions(grantee: IGrantable & IConstruct, permissions: readonly ProviderPermission[]): void {
  for (const permission of permissions) {
    for (const resource of permission.resources) {
      if (!resource.includes('*') || resource === '*') continue;
      Validations.of(grantee).acknowledge({
        id: `AwsSolutions-IAM5[Resource::${resource}]`,
        reason: permission.conditions
          ? 'Declared by a provider: the resources do not exist yet or are many; the statement is limited by its condition (capless tags, tag-on-create or the service it passes a role to).'
          : 'Declared by a provider: RunInstances authorises the image, subnet, security groups and key pair it launches with; the instance itself is covered by a tag-conditioned statement.',
      });
    }
    Grant.addToPrincipal({
      grantee,
      actions: [...permission.actions],
      resourceArns: [...permission.resources],
      ...(permission.conditions ? { conditions: structuredClone(permission.conditions) } : {}),
    });
  }
}
