/** Bootstrap-data chunks in Secrets Manager (CAPA's pkg/cloud/services/secretsmanager). */

import {
  CreateSecretCommand,
  DeleteSecretCommand,
  GetSecretValueCommand,
  ResourceExistsException,
  ResourceNotFoundException,
  type SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager';
import type { Tags } from '../../../contracts/providers/aws/aws-tags.js';
import type { UserDataSecrets } from '../../../ports/user-data-secrets.js';
import { sdkCall } from '../ec2/sdk-errors.js';

export class SdkUserDataSecrets implements UserDataSecrets {
  constructor(private readonly client: SecretsManagerClient) {}

  async createSecret(request: { name: string; value: Uint8Array; tags: Tags }): Promise<void> {
    const create = () =>
      this.client.send(
        new CreateSecretCommand({
          Name: request.name,
          SecretBinary: request.value,
          Tags: Object.entries(request.tags).map(([Key, Value]) => ({ Key, Value })),
        }),
      );
    try {
      await create();
    } catch (error) {
      if (!(error instanceof ResourceExistsException)) return sdkCall('CreateSecret', () => Promise.reject(error));
      // CAPA: a leftover of the same name is force-deleted and the create retried.
      await this.deleteSecret(request.name);
      await sdkCall('CreateSecret', create);
    }
  }

  async deleteSecret(name: string): Promise<void> {
    try {
      await this.client.send(new DeleteSecretCommand({ SecretId: name, ForceDeleteWithoutRecovery: true }));
    } catch (error) {
      if (error instanceof ResourceNotFoundException) return;
      await sdkCall('DeleteSecret', () => Promise.reject(error));
    }
  }

  async getSecret(name: string): Promise<Uint8Array | undefined> {
    try {
      const out = await this.client.send(new GetSecretValueCommand({ SecretId: name }));
      return out.SecretBinary ?? (out.SecretString !== undefined ? new TextEncoder().encode(out.SecretString) : undefined);
    } catch (error) {
      if (error instanceof ResourceNotFoundException) return undefined;
      return sdkCall('GetSecretValue', () => Promise.reject(error));
    }
  }
}
