/**
 * The inputs of the parity test: the storage version's openAPIV3Schema of every CRD under
 * ../shared/capi-samples (Cluster API, CAPA, in-cluster IPAM), and the valid objects variants
 * are derived from — the project's fixtures, the upstream examples and templates (clusterctl
 * variables filled in), and a few objects that carry the fields the CEL rules sit on.
 */

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';
import { admitCreate } from '../../../shared/contracts/admission/admit.js';
import { isRecord } from '../../../shared/contracts/json.js';
import { capaTemplateDocuments } from '../../support/capa-template.js';
import { lifecycleCluster } from '../../support/lifecycle-manifests.js';
import { crdSchema } from '../../../shared/contracts/crds/crd-schemas.js';
import { cluster, ctx, kubeadmConfig, kubeadmControlPlane, machine, machineDeployment, machineDrainRule, machineSet } from '../admission-fixtures.js';
import type { Schema } from './variants.js';

export const SAMPLES = fileURLToPath(new URL('../../../../shared/capi-samples/', import.meta.url));
export const CRDS = `${SAMPLES}crds/`;
const CRD_FOLDERS = [CRDS, `${SAMPLES}capa/`, `${SAMPLES}ipam/`];
const EXAMPLE_FOLDERS = [`${SAMPLES}examples/`, `${SAMPLES}ipam/`];

function yamlDocuments(folder: string): [string, unknown][] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .filter((f) => f.endsWith('.yaml'))
    .flatMap((f) => parseAllDocuments(fillVariables(readFileSync(`${folder}${f}`, 'utf8'))).map((d, i): [string, unknown] => [`${f}#${i}`, d.toJS()]));
}

/** clusterctl's `${NAME:=default}` / `${NAME:-default}` and the few bare variables the examples use. */
function fillVariables(text: string): string {
  const values: Record<string, string> = { CLUSTER_NAME: 'parity', NAMESPACE: 'default', KUBERNETES_VERSION: 'v1.32.0', CONTROL_PLANE_MACHINE_COUNT: '1', WORKER_MACHINE_COUNT: '2' };
  return text.replace(/\$\{([A-Z0-9_]+)(?::[-=]([^}]*))?\}/g, (match, name: string, fallback: string | undefined) => values[name] ?? fallback ?? match);
}

/** `group/Kind` → the storage version's schema; objects in another version are checked against theirs by the API server. */
export function storageSchemas(): Map<string, { version: string; schema: Schema }> {
  const schemas = new Map<string, { version: string; schema: Schema }>();
  for (const [, crd] of CRD_FOLDERS.flatMap(yamlDocuments)) {
    if (!isRecord(crd) || crd.kind !== 'CustomResourceDefinition' || !isRecord(crd.spec) || !isRecord(crd.spec.names) || !Array.isArray(crd.spec.versions)) continue;
    const storage = crd.spec.versions.find((v) => isRecord(v) && v.storage === true);
    const schema = isRecord(storage) && isRecord(storage.schema) ? storage.schema.openAPIV3Schema : undefined;
    if (isRecord(schema) && isRecord(storage)) schemas.set(`${String(crd.spec.group)}/${String(crd.spec.names.kind)}`, { version: String(storage.name), schema });
  }
  if (schemas.size === 0) return schemas;
  // A served kind whose CRD is not among the samples (MachineDrainRule): the schema capless vendors from it.
  for (const info of ctx.kinds.all()) {
    const vendored = crdSchema(info.group, info.kind);
    const key = `${info.group}/${info.kind}`;
    if (vendored && !schemas.has(key)) schemas.set(key, { version: info.versions[0] ?? '', schema: { ...vendored } });
  }
  return schemas;
}

const infrastructure = 'infrastructure.cluster.x-k8s.io/v1beta2';

/** Objects that carry the fields CEL rules and deep bounds sit on, which no fixture or example has. */
function ruleCarriers(): unknown[] {
  const config = kubeadmConfig();
  const spec = {
    ...config.spec,
    clusterConfiguration: { apiServer: { extraArgs: [{ name: 'audit-log-maxage', value: '30' }] } },
    diskSetup: {
      partitions: [{ device: '/dev/sdb', overwrite: false, tableType: 'gpt', diskLayout: [{ percentage: 100, partitionType: 'Linux' }] }],
      filesystems: [{ device: '/dev/sdb1', filesystem: 'ext4', label: 'data' }],
    },
    files: [{ path: '/etc/motd', content: 'hi', owner: 'root:root', permissions: '0644' }],
    users: [{ name: 'ops', sshAuthorizedKeys: ['ssh-ed25519 AAAA'] }],
    ntp: { enabled: true, servers: ['time.example.com'] },
  };
  const awsCluster = {
    apiVersion: infrastructure,
    kind: 'AWSCluster',
    metadata: { name: 'carrier', namespace: 'default' },
    spec: {
      region: 'us-east-1',
      controlPlaneLoadBalancer: { ingressRules: [{ description: 'API server', protocol: 'tcp', fromPort: 6443, toPort: 6443, cidrBlocks: ['10.0.0.0/8'] }] },
      network: { vpc: { carrierGatewayId: 'cagw-0123456789abcdef0', elasticIpPool: { publicIpv4Pool: 'ipv4pool-ec2-0123456789abcdef0', publicIpv4PoolFallbackOrder: 'amazon-pool' } } },
    },
  };
  const awsMachine = {
    apiVersion: infrastructure,
    kind: 'AWSMachine',
    metadata: { name: 'carrier', namespace: 'default' },
    spec: { instanceType: 't3.large', capacityReservationId: 'cr-0123456789abcdef0' },
  };
  return [{ ...config, metadata: { name: 'carrier', namespace: 'default' }, spec }, awsCluster, awsMachine];
}

/** The rule carriers, for a test that they are admitted (else they would silently drop out). */
export function ruleCarrierObjects(): unknown[] {
  return ruleCarriers();
}

/** Every object admission accepts, named by where it comes from. */
export function validObjects(): [string, Record<string, unknown>][] {
  const own: [string, unknown][] = [
    ...[cluster(), machine(), machineSet(), machineDeployment(), kubeadmControlPlane(), kubeadmConfig(), machineDrainRule()].map((o): [string, unknown] => [`fixture ${o.kind}`, o]),
    ...lifecycleCluster('parity').map((o): [string, unknown] => [`lifecycle ${o.kind}`, o]),
    ...ruleCarriers().map((o): [string, unknown] => ['rule carrier', o]),
    ...(capaTemplateDocuments() ?? []).map((o, i): [string, unknown] => [`capa template#${i}`, o]),
  ];
  const upstream = EXAMPLE_FOLDERS.flatMap(yamlDocuments);
  return [...own, ...upstream].flatMap(([name, doc]): [string, Record<string, unknown>][] => {
    if (!isRecord(doc) || JSON.stringify(doc).includes('${')) return [];
    try {
      admitCreate(structuredClone(doc), ctx);
      return [[name, doc]];
    } catch {
      return [];
    }
  });
}

/** Upstream objects admission refuses: reported by the test, since the CRDs accept them all. */
export function refusedUpstream(): string[] {
  return EXAMPLE_FOLDERS.flatMap(yamlDocuments).flatMap(([name, doc]) => {
    if (!isRecord(doc) || JSON.stringify(doc).includes('${') || doc.kind === 'CustomResourceDefinition') return [];
    try {
      admitCreate(structuredClone(doc), ctx);
      return [];
    } catch (error) {
      return [`${name} (${String(doc.kind)}): ${error instanceof Error ? error.message : String(error)}`];
    }
  });
}
