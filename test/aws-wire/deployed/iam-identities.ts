/**
 * Identities in moto's IAM and STS for a run under IAM enforcement: an administrator for the
 * runtime's own calls (it plays the Lambda service, which reads queues on its own authority), and
 * each function's role assumed through STS, as Lambda does before it starts an execution environment.
 */

import { randomUUID } from 'node:crypto';
import { type MotoApi, xmlField } from './moto-api.js';
import type { Credentials } from './sigv4.js';

const IAM_VERSION = '2010-05-08';
const STS_VERSION = '2011-06-15';

function credentialsFrom(xml: string, what: string): Credentials {
  const accessKeyId = xmlField(xml, 'AccessKeyId');
  const secretAccessKey = xmlField(xml, 'SecretAccessKey');
  if (!accessKeyId || !secretAccessKey) throw new Error(`${what}: no credentials in ${xml.slice(0, 300)}`);
  const sessionToken = xmlField(xml, 'SessionToken');
  return { accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) };
}

/** A user allowed everything, for the runtime's pollers and probes. */
export async function createAdministrator(moto: MotoApi): Promise<Credentials> {
  const userName = 'capless-deployed-runtime';
  await moto.query('iam', 'CreateUser', IAM_VERSION, { UserName: userName });
  await moto.query('iam', 'PutUserPolicy', IAM_VERSION, {
    UserName: userName,
    PolicyName: 'everything',
    PolicyDocument: JSON.stringify({ Version: '2012-10-17', Statement: [{ Effect: 'Allow', Action: '*', Resource: '*' }] }),
  });
  return credentialsFrom(await moto.query('iam', 'CreateAccessKey', IAM_VERSION, { UserName: userName }), 'CreateAccessKey');
}

/** Temporary credentials of `roleArn`, the ones a function's environment gets. */
export async function assumeRole(moto: MotoApi, roleArn: string): Promise<Credentials> {
  const xml = await moto.query('sts', 'AssumeRole', STS_VERSION, { RoleArn: roleArn, RoleSessionName: `capless-${randomUUID().slice(0, 8)}`, DurationSeconds: '3600' });
  return credentialsFrom(xml, `AssumeRole ${roleArn}`);
}
