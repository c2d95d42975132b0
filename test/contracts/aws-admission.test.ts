/**
 * CAPA's kinds are admitted by CAPA's CRD schemas: the AWS objects of CAPA's cluster template
 * apply unchanged, defaults are applied as the API server would, and what the CRDs reject is a
 * 422 naming the field.
 */

import { describe, expect, it } from 'vitest';
import { admitCreate } from '../../shared/contracts/admission/admit.js';
import { valueAt } from '../../shared/contracts/json.js';
import { InvalidError } from '../../shared/errors/index.js';
import { capaTemplateDocuments, CAPA_TEMPLATE } from '../support/capa-template.js';
import { ctx } from './admission-fixtures.js';

const documents = capaTemplateDocuments();
const awsDocuments = (documents ?? []).filter((doc) => String(doc.kind).startsWith('AWS'));

function awsMachine(spec: Record<string, unknown>) {
  return { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2', kind: 'AWSMachine', metadata: { name: 'm', namespace: 'default' }, spec };
}

function awsCluster(spec: Record<string, unknown>) {
  return { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2', kind: 'AWSCluster', metadata: { name: 'c', namespace: 'default' }, spec };
}

function rejection(obj: unknown): string[] {
  try {
    admitCreate(obj, ctx);
  } catch (error) {
    if (error instanceof InvalidError) return error.causes.map((c) => c.field ?? '');
    throw error;
  }
  return [];
}

describe("CAPA's cluster template", () => {
  if (documents === undefined) {
    it("CAPA's cluster template", (context) => context.skip(`${CAPA_TEMPLATE} is absent: CAPA's template not checked`));
    return;
  }
  it('has the four AWS objects', () => {
    expect(awsDocuments.map((d) => d.kind).sort()).toEqual(['AWSCluster', 'AWSMachineTemplate', 'AWSMachineTemplate']);
  });
  it.each(awsDocuments.map((d) => [`${String(d.kind)} ${String(valueAt(d, 'metadata', 'name'))}`, d]))('%s is admitted unchanged', (_name, doc) => {
    const admitted = admitCreate(doc, ctx);
    expect(admitted.kind).toBe(doc.kind);
  });
});

describe('AWS kinds are admitted by the CRD schemas', () => {
  it('applies CRD defaults where the enclosing object is present', () => {
    const admitted = admitCreate(awsMachine({ instanceType: 't3.large', instanceMetadataOptions: {} }), ctx);
    expect(admitted.spec?.instanceMetadataOptions).toEqual({
      httpEndpoint: 'enabled',
      httpProtocolIpv6: 'disabled',
      httpPutResponseHopLimit: 1,
      httpTokens: 'optional',
      instanceMetadataTags: 'disabled',
    });
    expect(admitted.spec?.hostAffinity).toBe('default');
    expect(admitted.spec?.rootVolume).toBeUndefined();
  });

  it('defaults the network of an AWSCluster', () => {
    const admitted = admitCreate(awsCluster({ region: 'us-east-1', network: { vpc: {} } }), ctx);
    expect(valueAt(admitted, 'spec', 'network', 'vpc', 'availabilityZoneSelection')).toBe('Ordered');
    expect(valueAt(admitted, 'spec', 'network', 'vpc', 'availabilityZoneUsageLimit')).toBe(3);
  });

  it.each([
    ['a missing instanceType', awsMachine({}), 'spec.instanceType'],
    ['a too short instanceType', awsMachine({ instanceType: 't' }), 'spec.instanceType'],
    ['an unknown field', awsMachine({ instanceType: 't3.large', instanceSize: 'big' }), 'spec.instanceSize'],
    ['a root volume under 8 GiB', awsMachine({ instanceType: 't3.large', rootVolume: { size: 4 } }), 'spec.rootVolume.size'],
    ['an unknown secrets backend', awsMachine({ instanceType: 't3.large', cloudInit: { secureSecretsBackend: 'vault' } }), 'spec.cloudInit.secureSecretsBackend'],
    ['a malformed host id', awsMachine({ instanceType: 't3.large', hostID: 'host-1' }), 'spec.hostID'],
    ['an unknown load balancer type', awsCluster({ controlPlaneLoadBalancer: { loadBalancerType: 'gwlb' } }), 'spec.controlPlaneLoadBalancer.loadBalancerType'],
    ['a string port', awsCluster({ controlPlaneEndpoint: { host: 'h', port: '6443' } }), 'spec.controlPlaneEndpoint.port'],
  ])('rejects %s, naming the field', (_case, obj, field) => {
    expect(rejection(obj)).toContain(field);
  });
});

describe('null fields of a custom resource spec', () => {
  it('are dropped as the API server prunes them (CAPA template: selector.matchLabels: null)', () => {
    const md = {
      apiVersion: 'cluster.x-k8s.io/v1beta1',
      kind: 'MachineDeployment',
      metadata: { name: 'md', namespace: 'default' },
      spec: {
        clusterName: 'c1',
        replicas: 1,
        selector: { matchLabels: null },
        template: {
          spec: {
            clusterName: 'c1',
            version: 'v1.32.0',
            bootstrap: { configRef: { apiVersion: 'bootstrap.cluster.x-k8s.io/v1beta1', kind: 'KubeadmConfigTemplate', name: 'md' } },
            infrastructureRef: { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2', kind: 'AWSMachineTemplate', name: 'md' },
          },
        },
      },
    };
    const admitted = admitCreate(md, ctx);
    expect(valueAt(admitted, 'spec', 'selector', 'matchLabels')).not.toBeNull();
  });
});
