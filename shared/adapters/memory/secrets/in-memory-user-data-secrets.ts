/** Secrets Manager for user data, in memory (the same contract as the SDK adapter). */

import type { Tags } from '../../../contracts/providers/aws/aws-tags.js';
import type { UserDataSecrets } from '../../../ports/user-data-secrets.js';

export class InMemoryUserDataSecrets implements UserDataSecrets {
  readonly secrets = new Map<string, { value: Uint8Array; tags: Tags }>();

  async createSecret(request: { name: string; value: Uint8Array; tags: Tags }): Promise<void> {
    this.secrets.set(request.name, { value: new Uint8Array(request.value), tags: { ...request.tags } });
  }

  async deleteSecret(name: string): Promise<void> {
    this.secrets.delete(name);
  }

  async getSecret(name: string): Promise<Uint8Array | undefined> {
    const secret = this.secrets.get(name);
    return secret ? new Uint8Array(secret.value) : undefined;
  }
}
