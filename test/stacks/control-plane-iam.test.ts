import { describe, expect, it } from 'vitest';
import { RECONCILED_KINDS } from '../../lib/stacks/reconciled-kinds.js';
import { SECRET_PARTITION_PREFIX } from '../../shared/adapters/aws/dynamodb/table-design.js';
import { valueAt } from '../../shared/contracts/json.js';
import { synthStack } from './support/synth-stack.js';
import { allPolicies, type FunctionPolicy, functionPolicies, referencedId, type Statement } from './support/template-reading.js';

const { template } = synthStack();
const functions = functionPolicies(template);

const SECRET_PATTERN = `${SECRET_PARTITION_PREFIX}*`;
const NEEDS_SECRETS = new Set(['capless-api', ...RECONCILED_KINDS.filter((k) => k.needsSecrets).map((k) => `capless-reconcile-${k.kind.toLowerCase()}`)]);
const READS_KUBECONFIGS = new Set(RECONCILED_KINDS.filter((k) => !k.needsSecrets && k.readsKubeconfigs).map((k) => `capless-reconcile-${k.kind.toLowerCase()}`));

function secretAccessOf(serviceName: string): 'read and write Secrets' | 'only get Secrets by name (kubeconfigs)' | 'not touch Secrets' {
  if (NEEDS_SECRETS.has(serviceName)) return 'read and write Secrets';
  return READS_KUBECONFIGS.has(serviceName) ? 'only get Secrets by name (kubeconfigs)' : 'not touch Secrets';
}

function fn(serviceName: string): FunctionPolicy {
  const found = functions.find((f) => f.serviceName === serviceName);
  if (!found) throw new Error(`no function ${serviceName}`);
  return found;
}

function leadingKeys(statement: Statement, operator: string): unknown {
  return valueAt(statement.condition, operator, 'dynamodb:LeadingKeys');
}

function itemStatements(policy: FunctionPolicy): Statement[] {
  return policy.statements.filter((s) => s.actions.some((a) => a.startsWith('dynamodb:') && !/Stream|GetRecords|GetShardIterator/.test(a)));
}

/** Statements that open Secret partitions: a positive LeadingKeys match on the Secret prefix. */
function secretStatements(policy: FunctionPolicy): Statement[] {
  return itemStatements(policy).filter((s) => JSON.stringify(leadingKeys(s, 'ForAllValues:StringLike')) === JSON.stringify([SECRET_PATTERN]));
}

function sentQueues(policy: FunctionPolicy): string[] {
  return policy.statements
    .filter((s) => s.actions.includes('sqs:SendMessage'))
    .flatMap((s) => s.resources.map(referencedId))
    .filter((id): id is string => id !== undefined && !id.includes('StreamFailures'))
    .sort();
}

describe('every IAM policy', () => {
  const statements = allPolicies(template).flatMap((p) => p.statements);

  it('has statements to check', () => {
    expect(statements.length).toBeGreaterThan(50);
  });

  it('names every action exactly: no "*" anywhere in an action', () => {
    const wildcards = statements.flatMap((s) => s.actions).filter((action) => action.includes('*'));
    expect(wildcards).toEqual([]);
  });

  it('allows only (no hand-written Deny needed: access is by positive grants)', () => {
    expect(statements.every((s) => s.effect === 'Allow')).toBe(true);
  });

  it('never grants Scan (ForAllValues conditions hold vacuously for it)', () => {
    expect(statements.flatMap((s) => s.actions)).not.toContain('dynamodb:Scan');
  });

  it('puts a dynamodb:LeadingKeys condition on every table item statement', () => {
    for (const policy of functions) {
      for (const statement of itemStatements(policy)) {
        expect(statement.condition, `${policy.serviceName}: ${statement.actions.join(',')}`).toBeDefined();
        expect(JSON.stringify(statement.condition)).toContain('dynamodb:LeadingKeys');
      }
    }
  });
});

/** Functions that work on the table (all but the hosted extensions, which touch no object). */
const TABLE_FUNCTIONS = functions.filter((f) => f.serviceName !== 'capless-hooks');

describe('function capless-hooks (hosted Runtime Extensions)', () => {
  const policy = fn('capless-hooks');

  it('touches no table, queue or key of the control plane', () => {
    const actions = policy.statements.flatMap((s) => s.actions);
    expect(actions.filter((a) => a.startsWith('dynamodb:') || a.startsWith('sqs:'))).toEqual([]);
    expect(policy.statements.filter((s) => s.resources.some((r) => referencedId(r)?.includes('StateKey')))).toEqual([]);
  });

  it('reads only its path secret', () => {
    const reads = policy.statements.filter((s) => s.actions.some((a) => a.startsWith('secretsmanager:')));
    expect(reads).toHaveLength(1);
    expect(reads[0]?.actions).toEqual(expect.arrayContaining(['secretsmanager:GetSecretValue']));
    expect(reads[0]?.resources.map(referencedId)).toEqual([expect.stringMatching(/HooksPathSecret/)]);
  });
});

describe.each(TABLE_FUNCTIONS.map((f) => [f.serviceName, f] as const))('function %s', (serviceName, policy) => {
  it('may use the CMK (table and queues are encrypted with it)', () => {
    const keyActions = policy.statements.filter((s) => s.resources.some((r) => referencedId(r)?.includes('StateKey'))).flatMap((s) => s.actions);
    expect(keyActions).toContain('kms:Decrypt');
  });

  it('writes only to its own log group', () => {
    const logs = policy.statements.filter((s) => s.actions.some((a) => a.startsWith('logs:')));
    expect(logs).toHaveLength(1);
    expect(logs[0]?.resources.map(referencedId)).toEqual([expect.stringMatching(/LogGroup/)]);
  });

  it(`may ${secretAccessOf(serviceName)}`, () => {
    const secrets = secretStatements(policy);
    const access = secretAccessOf(serviceName);
    if (access === 'read and write Secrets') {
      expect(secrets.flatMap((s) => s.actions)).toEqual(expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:PutItem', 'dynamodb:DeleteItem']));
    } else if (access === 'only get Secrets by name (kubeconfigs)') {
      expect(secrets.flatMap((s) => s.actions)).toEqual(['dynamodb:GetItem']);
      expect(secrets.flatMap((s) => s.resources.map(referencedId))).toEqual([expect.stringMatching(/StateTable/)]);
    } else {
      expect(secrets).toEqual([]);
    }
  });

  it('reaches ordinary objects only outside the Secret partitions', () => {
    const objectStatements = itemStatements(policy).filter((s) => leadingKeys(s, 'ForAllValues:StringNotLike') !== undefined);
    expect(objectStatements.length).toBeGreaterThan(0);
    for (const statement of objectStatements) expect(leadingKeys(statement, 'ForAllValues:StringNotLike')).toEqual([SECRET_PATTERN]);
  });
});

describe('workload-cluster access', () => {
  it.each(['Machine', 'MachineHealthCheck'])('the %s reconciler may get kubeconfig Secrets (it reads Nodes of real clusters)', (kind) => {
    expect(secretAccessOf(`capless-reconcile-${kind.toLowerCase()}`)).toBe('only get Secrets by name (kubeconfigs)');
  });
});

describe('queue access', () => {
  const allKindQueues = RECONCILED_KINDS.map((k) => k.kind);

  it.each(['capless-router', 'capless-resync'])('%s may enqueue to every kind', (serviceName) => {
    const sent = sentQueues(fn(serviceName));
    expect(sent).toHaveLength(allKindQueues.length);
    for (const kind of allKindQueues) expect(sent.some((id) => id.startsWith(`ControlPlaneQueues${kind}Queue`))).toBe(true);
  });

  it.each(RECONCILED_KINDS.map((k) => [k.kind]))('the %s reconciler may send only to its own queue and dead-letter queue', (kind) => {
    const sent = sentQueues(fn(`capless-reconcile-${kind.toLowerCase()}`));
    expect(sent).toEqual([
      expect.stringMatching(new RegExp(`^ControlPlaneQueues${kind}DeadLetterQueue[0-9A-F]{8}$`)),
      expect.stringMatching(new RegExp(`^ControlPlaneQueues${kind}Queue[0-9A-F]{8}$`)),
    ]);
  });

  it('the API enqueues nothing (the stream drives all work)', () => {
    expect(sentQueues(fn('capless-api'))).toEqual([]);
  });

  it('only the router may write to the stream failure queue', () => {
    const writers = functions.filter((f) => f.statements.some((s) => s.actions.includes('sqs:SendMessage') && s.resources.some((r) => referencedId(r)?.includes('StreamFailures'))));
    expect(writers.map((f) => f.serviceName)).toEqual(['capless-router']);
  });
});

describe('object writes', () => {
  it.each(['capless-router', 'capless-resync'])('%s writes only work items, never objects', (serviceName) => {
    const writes = itemStatements(fn(serviceName)).filter((s) => s.actions.includes('dynamodb:PutItem') || s.actions.includes('dynamodb:UpdateItem'));
    expect(writes).toHaveLength(1);
    expect(writes.map((s) => leadingKeys(s, 'ForAllValues:StringLike'))).toEqual([['work#*']]);
  });
});
