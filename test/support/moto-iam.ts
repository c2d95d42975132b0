/**
 * IAM instance profiles in moto without an IAM SDK client (the repository has none): moto's
 * server answers IAM's query protocol and routes by the credential scope of the Authorization
 * header, whose signature it does not check.
 */

export async function createMotoInstanceProfile(endpoint: string, name: string): Promise<void> {
  const body = new URLSearchParams({ Action: 'CreateInstanceProfile', InstanceProfileName: name, Version: '2010-05-08' });
  const response = await fetch(endpoint, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded; charset=utf-8',
      authorization: 'AWS4-HMAC-SHA256 Credential=moto/20260101/us-east-1/iam/aws4_request, SignedHeaders=host, Signature=0',
    },
    body,
  });
  const text = await response.text();
  if (!response.ok && !text.includes('EntityAlreadyExists')) throw new Error(`CreateInstanceProfile ${name}: ${response.status} ${text}`);
}
