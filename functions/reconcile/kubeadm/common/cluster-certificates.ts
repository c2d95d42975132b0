/**
 * The cluster certificate Secrets `<cluster>-{ca,etcd,proxy,sa}` (kubeadm-bootstrap.md §3):
 * looked up, or generated once with a create-if-absent so that concurrent reconcilers agree on
 * one set — AlreadyExists means someone else won, and their Secret is the one used.
 *
 * With an external etcd (`clusterConfiguration.etcd.external`, Cluster API's
 * NewCertificatesForInitialControlPlane and NewControlPlaneJoinCerts), the etcd CA is the user's
 * and a certificate only (`<cluster>-etcd`, `tls.crt`), and the API server's client pair for it
 * is the user's too (`<cluster>-apiserver-etcd-client`): both looked up, never generated, and
 * missing until the user creates them.
 */

import { recordAt } from '../../../../shared/contracts/json.js';
import {
  LABEL_CLUSTER_NAME,
  type OwnerReference,
  type StoredObject,
} from '../../../../shared/contracts/object.js';
import { isAlreadyExists } from '../../../../shared/errors/index.js';
import type { ObjectStore } from '../../../../shared/ports/object-store.js';
import { encodeSecretValue, secretText } from './secret-data.js';
import { CLUSTER_SECRET_TYPE } from './well-known.js';

export const CERTIFICATE_PURPOSES = ['ca', 'etcd', 'proxy', 'sa'] as const;
export type CertificatePurpose = (typeof CERTIFICATE_PURPOSES)[number];

/** PEM texts: `tls.crt` and `tls.key` of one Secret. */
export interface CertificatePair {
  cert: string;
  key: string;
}

export type ClusterCertificates = Record<CertificatePurpose, CertificatePair>;

/** The API server's client pair for an external etcd (`<cluster>-apiserver-etcd-client`). */
export const API_SERVER_ETCD_CLIENT = 'apiserver-etcd-client';
export type AnyCertificatePurpose = CertificatePurpose | typeof API_SERVER_ETCD_CLIENT;

/** What a control-plane node's certificates are: the generated four, and the user's for an external etcd. */
export type FoundCertificates = Partial<Record<AnyCertificatePurpose, CertificatePair>>;

/** How one Secret is found: whether capless makes it, and whether it must hold a key. */
interface CertificateRule {
  purpose: AnyCertificatePurpose;
  generated: boolean;
  needsKey: boolean;
}

/** The Secrets a control plane needs (rules as data). */
export function certificateRules(externalEtcd: boolean): readonly CertificateRule[] {
  const generated = (purpose: CertificatePurpose): CertificateRule => ({ purpose, generated: !(externalEtcd && purpose === 'etcd'), needsKey: !(externalEtcd && purpose === 'etcd') });
  const rules = CERTIFICATE_PURPOSES.map(generated);
  return externalEtcd ? [...rules, { purpose: API_SERVER_ETCD_CLIENT, generated: false, needsKey: true }] : rules;
}

/** Whether a kubeadm config spec names an external etcd (`clusterConfiguration.etcd.external`). */
export function usesExternalEtcd(kubeadmConfigSpec: unknown): boolean {
  return recordAt(kubeadmConfigSpec, 'clusterConfiguration', 'etcd', 'external') !== undefined;
}

export interface ClusterRef {
  namespace: string;
  clusterName: string;
}

export function certificateSecretName(clusterName: string, purpose: AnyCertificatePurpose): string {
  return `${clusterName}-${purpose}`;
}

const SECRET_KIND = { group: '', kind: 'Secret' };

function secretKey(ref: ClusterRef, purpose: AnyCertificatePurpose) {
  return { group: '', kind: 'Secret', namespace: ref.namespace, name: certificateSecretName(ref.clusterName, purpose) };
}

/** A pair from a stored Secret; undefined unless both PEMs are present (or the certificate, when no key is needed: its key is then ''). */
export function pairFromSecret(secret: StoredObject | undefined, needsKey = true): CertificatePair | undefined {
  const cert = secretText(secret, 'tls.crt');
  const key = secretText(secret, 'tls.key');
  if (!cert) return undefined;
  if (key) return { cert, key };
  return needsKey ? undefined : { cert, key: '' };
}

/**
 * The pairs that exist now; a purpose is missing when its Secret is absent or incomplete. One
 * list of the cluster's labelled Secrets answers the usual case in one read (the per-reconcile
 * cache then answers later gets of them); a Secret the list lacks (a user's own CA without the
 * cluster-name label, or one the index has not caught up with) is read by name.
 */
export async function lookupClusterCertificates(store: ObjectStore, ref: ClusterRef, externalEtcd = false): Promise<FoundCertificates> {
  const rules = certificateRules(externalEtcd);
  const found: FoundCertificates = {};
  const labelled = await store.listByCluster(ref.namespace, ref.clusterName, SECRET_KIND);
  const byName = new Map(labelled.map((secret) => [secret.metadata.name, secret]));
  const secrets = await Promise.all(
    rules.map(({ purpose, needsKey }) => {
      const listed = byName.get(certificateSecretName(ref.clusterName, purpose));
      return pairFromSecret(listed, needsKey) ? listed : store.get(secretKey(ref, purpose));
    }),
  );
  rules.forEach(({ purpose, needsKey }, i) => {
    const pair = pairFromSecret(secrets[i], needsKey);
    if (pair) found[purpose] = pair;
  });
  return found;
}

/** The Secrets still missing, of the ones the control plane needs. */
export function missingPurposes(found: FoundCertificates, externalEtcd = false): AnyCertificatePurpose[] {
  return certificateRules(externalEtcd)
    .filter((rule) => found[rule.purpose] === undefined)
    .map((rule) => rule.purpose);
}

export function isComplete(found: FoundCertificates, externalEtcd = false): boolean {
  return missingPurposes(found, externalEtcd).length === 0;
}

export function certificateSecret(
  ref: ClusterRef,
  purpose: CertificatePurpose,
  pair: CertificatePair,
  owner: OwnerReference,
) {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    type: CLUSTER_SECRET_TYPE,
    metadata: {
      name: certificateSecretName(ref.clusterName, purpose),
      namespace: ref.namespace,
      labels: { [LABEL_CLUSTER_NAME]: ref.clusterName },
      ownerReferences: [owner],
    },
    data: { 'tls.crt': encodeSecretValue(pair.cert), 'tls.key': encodeSecretValue(pair.key) },
  };
}

export interface EnsureCertificatesInput extends ClusterRef {
  owner: OwnerReference;
  /** Makes a fresh set; called only when some generated purpose is missing. */
  generate: () => ClusterCertificates | Promise<ClusterCertificates>;
  /** The etcd is external: its CA and the API server's client pair are the user's, never generated. */
  externalEtcd?: boolean;
}

/**
 * Looks the Secrets up and creates the missing generated ones from one freshly generated set.
 * Existing Secrets are never replaced; a lost creation race reads the winner's Secret. The
 * user's (external etcd) stay missing until the user creates them.
 */
export async function ensureClusterCertificates(store: ObjectStore, input: EnsureCertificatesInput): Promise<FoundCertificates> {
  const externalEtcd = input.externalEtcd ?? false;
  const found = await lookupClusterCertificates(store, input, externalEtcd);
  const toGenerate = certificateRules(externalEtcd).flatMap((rule) => (rule.generated && found[rule.purpose] === undefined && isGenerated(rule.purpose) ? [rule.purpose] : []));
  if (toGenerate.length === 0) return found;
  const fresh = await input.generate();
  for (const purpose of toGenerate) {
    found[purpose] = await createOrRead(store, input, purpose, fresh[purpose]);
  }
  return found;
}

function isGenerated(purpose: AnyCertificatePurpose): purpose is CertificatePurpose {
  return purpose !== API_SERVER_ETCD_CLIENT;
}

async function createOrRead(
  store: ObjectStore,
  input: EnsureCertificatesInput,
  purpose: CertificatePurpose,
  pair: CertificatePair,
): Promise<CertificatePair> {
  try {
    await store.create(certificateSecret(input, purpose, pair, input.owner));
    return pair;
  } catch (error) {
    if (!isAlreadyExists(error)) throw error;
    const winner = pairFromSecret(await store.get(secretKey(input, purpose)));
    if (!winner) throw error;
    return winner;
  }
}
