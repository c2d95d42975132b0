/** Reads a Secrets Manager secret's string once per container (the hosted extensions' path secret). */

import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';

export function secretStringReader(secretId: string, client: SecretsManagerClient = new SecretsManagerClient({})): () => Promise<string> {
  let value: Promise<string> | undefined;
  return () => {
    value ??= client.send(new GetSecretValueCommand({ SecretId: secretId })).then((out) => {
      if (!out.SecretString) throw new Error(`secret ${secretId} has no string value`);
      return out.SecretString;
    });
    value.catch(() => {
      value = undefined;
    });
    return value;
  };
}
