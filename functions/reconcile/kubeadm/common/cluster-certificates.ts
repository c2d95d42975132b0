/**
 * The cluster certificate Secrets `<cluster>-{ca,etcd,proxy,sa}` (kubeadm-bootstrap.md §3):
 * looked up, or generated once with a create-if-absent so that concurrent reconcilers agree on
 * one set — AlreadyExists means someone else won, and their Secret is the one used.
 */

import {
  LABEL_CLUSTER_NAME,
  type OwnerReference,
  type StoredObject,
} from '../../../../shared/contracts/object.js';
import { TransientError, isAlreadyExists } from '../../../../shared/errors/index.js';
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

export interface ClusterRef {
  namespace: string;
  clusterName: string;
}

export function certificateSecretName(clusterName: string, purpose: CertificatePurpose): string {
  return `${clusterName}-${purpose}`;
}

const SECRET_KIND = { group: '', kind: 'Secret' };

function secretKey(ref: ClusterRef, purpose: CertificatePurpose) {
  return { group: '', kind: 'Secret', namespace: ref.namespace, name: certificateSecretName(ref.clusterName, purpose) };
}

/** A pair from a stored Secret; undefined unless both PEMs are present. */
export function pairFromSecret(secret: StoredObject | undefined): CertificatePair | undefined {
  const cert = secretText(secret, 'tls.crt');
  const key = secretText(secret, 'tls.key');
  return cert && key ? { cert, key } : undefined;
}

/**
 * The pairs that exist now; a purpose is missing when its Secret is absent or incomplete. One
 * list of the cluster's labelled Secrets answers the usual case in one read (the per-reconcile
 * cache then answers later gets of them); a Secret the list lacks (a user's own CA without the
 * cluster-name label, or one the index has not caught up with) is read by name.
 */
export async function lookupClusterCertificates(
  store: ObjectStore,
  ref: ClusterRef,
): Promise<Partial<ClusterCertificates>> {
  const found: Partial<ClusterCertificates> = {};
  const labelled = await store.listByCluster(ref.namespace, ref.clusterName, SECRET_KIND);
  const byName = new Map(labelled.map((secret) => [secret.metadata.name, secret]));
  const secrets = await Promise.all(
    CERTIFICATE_PURPOSES.map((purpose) => {
      const listed = byName.get(certificateSecretName(ref.clusterName, purpose));
      return pairFromSecret(listed) ? listed : store.get(secretKey(ref, purpose));
    }),
  );
  CERTIFICATE_PURPOSES.forEach((purpose, i) => {
    const pair = pairFromSecret(secrets[i]);
    if (pair) found[purpose] = pair;
  });
  return found;
}

export function missingPurposes(found: Partial<ClusterCertificates>): CertificatePurpose[] {
  return CERTIFICATE_PURPOSES.filter((purpose) => found[purpose] === undefined);
}

export function isComplete(found: Partial<ClusterCertificates>): found is ClusterCertificates {
  return missingPurposes(found).length === 0;
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
  /** Makes a fresh set; called only when some purpose is missing. */
  generate: () => ClusterCertificates | Promise<ClusterCertificates>;
}

/**
 * Looks the four Secrets up and creates the missing ones from one freshly generated set.
 * Existing Secrets are never replaced; a lost creation race reads the winner's Secret.
 */
export async function ensureClusterCertificates(
  store: ObjectStore,
  input: EnsureCertificatesInput,
): Promise<ClusterCertificates> {
  const found = await lookupClusterCertificates(store, input);
  if (isComplete(found)) return found;
  const fresh = await input.generate();
  for (const purpose of missingPurposes(found)) {
    found[purpose] = await createOrRead(store, input, purpose, fresh[purpose]);
  }
  if (!isComplete(found)) throw new TransientError('cluster certificates incomplete after generation');
  return found;
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
