/**
 * One registration of the AWS provider (shared/contracts/providers/aws/aws-provider.ts) reaches
 * every list that needs it: the API catalog and schemas, the provider registry (contract v1beta1,
 * reconcilers), the router's watches, and the CDK's reconciled kinds with their permissions and
 * event rules (test/stacks/aws-provider-stack.test.ts checks the synthesized IAM and rule).
 */

import { describe, expect, it } from 'vitest';
import { builtinProviderRegistry } from '../../../functions/reconcile/engine/providers/builtin.js';
import { RECONCILED_KINDS } from '../../../lib/stacks/reconciled-kinds.js';
import { defaultKinds } from '../../../shared/contracts/kinds.js';
import { servedGroupVersions } from '../../../shared/contracts/openapi.js';
import { AWS_PROVIDER, AWS_RECONCILED_KINDS } from '../../../shared/contracts/providers/aws/aws-provider.js';
import { BUILTIN_PROVIDERS } from '../../../shared/contracts/providers/builtin-providers.js';
import { hasSchema } from '../../../shared/contracts/schemas/catalog.js';

const registry = builtinProviderRegistry();

describe('the AWS provider registration', () => {
  it.each(AWS_PROVIDER.kinds.map((k) => [k.kind, k]))('%s is served by the API with its CRD schema, v1beta2 only', (_kind, info) => {
    expect(defaultKinds.get(info.group, info.kind)).toEqual(info);
    expect(hasSchema(info.group, info.kind)).toBe(true);
    expect(info.versions).toEqual(['v1beta2']);
    expect(registry.isServedKind(info.group, info.kind)).toBe(true);
    expect(registry.providerOf(info.group, info.kind)).toBe('aws');
  });

  it('is listed with the built-in providers and serves infrastructure.cluster.x-k8s.io/v1beta2', () => {
    expect(BUILTIN_PROVIDERS).toContain(AWS_PROVIDER);
    expect(servedGroupVersions()).toContainEqual({ group: 'infrastructure.cluster.x-k8s.io', version: 'v1beta2' });
  });

  it.each([
    ['AWSCluster', 'InfrastructureCluster', 'AWSClusterTemplate'],
    ['AWSMachine', 'InfrastructureMachine', 'AWSMachineTemplate'],
  ])('%s follows the v1beta1 contract as %s and is reconciled', (kind, role, templateKind) => {
    expect(registry.contractFor('infrastructure.cluster.x-k8s.io', kind)).toMatchObject({ role, contractVersion: 'v1beta1', templateKind });
    expect(registry.isReconciled('infrastructure.cluster.x-k8s.io', kind)).toBe(true);
  });

  it.each([
    ['Machine', 'AWSMachine'],
    ['Cluster', 'AWSCluster'],
  ])('the core %s reconciler watches %s through its contract, with no core change', (core, kind) => {
    const watched = registry.reconcilerFor('cluster.x-k8s.io', core)?.watches.filter((w) => w.by === 'owner').map((w) => w.kind.kind);
    expect(watched).toContain(kind);
  });

  it('gives every reconciled AWS kind a CDK queue and function with the permissions and event rules it declares', () => {
    for (const declared of AWS_RECONCILED_KINDS) {
      expect(RECONCILED_KINDS).toContainEqual(declared);
      expect(registry.isReconciled(declared.group, declared.kind)).toBe(true);
      expect(declared.permissions?.length).toBeGreaterThan(0);
    }
    expect(AWS_RECONCILED_KINDS.find((k) => k.kind === 'AWSMachine')?.eventRules?.map((r) => r.eventPattern)).toEqual([
      { source: ['aws.ec2'], 'detail-type': ['EC2 Instance State-change Notification'] },
    ]);
  });

  it('maps EC2 state-change events to AWSMachines in its reconciler', () => {
    expect(registry.reconcilerFor('infrastructure.cluster.x-k8s.io', 'AWSMachine')?.cloudEvents).toBeTypeOf('function');
  });
});
