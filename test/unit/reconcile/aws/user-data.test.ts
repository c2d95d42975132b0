import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { chunk, planUserData, SECRET_CHUNK_BYTES } from '../../../../functions/reconcile/infrastructure/aws/machine/user-data.js';

const base = { uid: '0b7c6d1e-1111-2222-3333-444455556666', region: 'eu-west-1', insecureSkipSecretsManager: false, uncompressedUserData: false };

function randomBytes(n: number, seed: number): Uint8Array {
  const out = new Uint8Array(n);
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}

describe('user data through Secrets Manager (CAPA)', () => {
  it.each([
    ['a small cloud-config', new TextEncoder().encode('#cloud-config\nruncmd: [kubeadm init]\n')],
    ['data that needs several 7,000-byte chunks', randomBytes(20_000, 7)],
  ])('%s: the chunks gunzip to the bootstrap data, each at most 7,000 bytes', (_case, data) => {
    const plan = planUserData({ ...base, bootstrapData: data });
    expect(plan.secretPrefix).toBe(`aws.cluster.x-k8s.io/${base.uid}`);
    expect(plan.secrets.map((s) => s.name)).toEqual(plan.secrets.map((_s, i) => `aws.cluster.x-k8s.io/${base.uid}-${i}`));
    expect(plan.secrets.every((s) => s.value.length <= SECRET_CHUNK_BYTES)).toBe(true);
    expect(Buffer.from(gunzipSync(Buffer.concat(plan.secrets.map((s) => Buffer.from(s.value)))))).toEqual(Buffer.from(data));
  });

  it('hands the instance a MIME boothook that fetches every chunk and an include-url of the result', () => {
    const plan = planUserData({ ...base, bootstrapData: randomBytes(20_000, 3) });
    const document = Buffer.from(plan.userData, 'base64').toString('utf8');
    expect(document).toMatch(/^Content-Type: multipart\/mixed; boundary="MIMEBOUNDARY"\r\n/);
    expect(document).toContain('Content-Type: text/cloud-boothook');
    expect(document).toContain(`CHUNKS="${plan.secrets.length}"`);
    expect(document).toContain('REGION="eu-west-1"');
    expect(document).toContain('Content-Type: text/x-include-url');
    expect(document).toContain('file:///etc/secret-userdata.txt');
    expect(document.trimEnd().endsWith('--MIMEBOUNDARY--')).toBe(true);
  });

  it('is the same plan on every run (a crashed launch rewrites the same secrets)', () => {
    const data = randomBytes(9_000, 1);
    expect(planUserData({ ...base, bootstrapData: data })).toEqual(planUserData({ ...base, bootstrapData: data }));
  });

  it.each([
    [false, (raw: Buffer) => gunzipSync(raw)],
    [true, (raw: Buffer) => raw],
  ])('with insecureSkipSecretsManager and uncompressedUserData %s: the data itself, no secrets', (uncompressed, decode) => {
    const data = new TextEncoder().encode('#cloud-config\n');
    const plan = planUserData({ ...base, insecureSkipSecretsManager: true, uncompressedUserData: uncompressed, bootstrapData: data });
    expect(plan.secrets).toEqual([]);
    expect(decode(Buffer.from(plan.userData, 'base64')).toString()).toBe('#cloud-config\n');
  });

  it('chunks empty data into one empty chunk', () => {
    expect(chunk(new Uint8Array())).toHaveLength(1);
  });
});
