import type { Tags } from '../contracts/providers/aws/aws-tags.js';

/** The bootstrap-data store of instances (Secrets Manager on AWS), CAPA's `secretsmanager` service. */
export interface UserDataSecrets {
  /** Creates a binary secret; an existing one of the same name is replaced (CAPA force-deletes and retries). */
  createSecret(request: { name: string; value: Uint8Array; tags: Tags }): Promise<void>;
  /** Deletes without recovery window; a missing secret is not an error. */
  deleteSecret(name: string): Promise<void>;
  /** Reads a secret (what the instance's boot script does); undefined when absent. */
  getSecret(name: string): Promise<Uint8Array | undefined>;
}
