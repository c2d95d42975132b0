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
/** Lists Secrets (without their data) for a watch's initial state; never writes them. */
const READS_SECRETS = new Set(['capless-watch']);
const READS_KUBECONFIGS = new Set(RECONCILED_KINDS.filter((k) => !k.needsSecrets && k.readsKubeconfigs).map((k) => `capless-reconcile-${k.kind.toLowerCase()}`));

type SecretAccess = 'read and write Secrets' | 'read Secrets but not write them' | 'only get Secrets by name (kubeconfigs)' | 'not touch Secrets';

function secretAccessOf(serviceName: string): SecretAccess {
  if (NEEDS_SECRETS.has(serviceName)) return 'read and write Secrets';
  if (READS_SECRETS.has(serviceName)) return 'read Secrets but not write them';
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

/** Statements on the watch log table (ADR 0080): change history, no Secret data, no objects to keep apart. */
function isWatchLogStatement(statement: Statement): boolean {
  return statement.resources.some((r) => referencedId(r)?.startsWith('ControlPlaneWatchLog') === true);
}

/** Statements on the object table's items. */
function itemStatements(policy: FunctionPolicy): Statement[] {
  return policy.statements.filter((s) => !isWatchLogStatement(s) && s.actions.some((a) => a.startsWith('dynamodb:') && !/Stream|GetRecords|GetShardIterator/.test(a)));
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

/** Functions that work on the table (all but the hosted extensions and the dispatcher, which touch no object). */
const TABLE_FUNCTIONS = functions.filter((f) => f.serviceName !== 'capless-hooks' && f.serviceName !== 'capless-dispatch');

describe('function capless-dispatch (the shared work queue\'s dispatcher, ADR 0110)', () => {
  const policy = fn('capless-dispatch');

  it('touches no table', () => {
    expect(policy.statements.flatMap((s) => s.actions).filter((a) => a.startsWith('dynamodb:'))).toEqual([]);
  });

  it('may invoke exactly the reconciler functions, each by its own ARN', () => {
    const invokes = policy.statements.filter((s) => s.actions.some((a) => a.startsWith('lambda:')));
    expect(invokes.flatMap((s) => s.actions)).toEqual(['lambda:InvokeFunction']);
    const targets = invokes.flatMap((s) => s.resources.map(referencedId)).sort();
    expect(targets).toHaveLength(RECONCILED_KINDS.length);
    expect(new Set(targets).size).toBe(RECONCILED_KINDS.length);
    for (const kind of RECONCILED_KINDS) expect(targets).toContainEqual(expect.stringMatching(new RegExp(`^ControlPlaneReconcile${kind.kind}Function[0-9A-F]{8}$`)));
  });

  it("may send to the shared work queue (hops, re-sends) and to every kind's dead-letter queue", () => {
    const sent = sentQueues(policy);
    expect(sent).toHaveLength(1 + RECONCILED_KINDS.length);
    expect(sent).toContainEqual(expect.stringMatching(/^ControlPlaneQueuesSharedWorkQueue[0-9A-F]{8}$/));
    for (const kind of RECONCILED_KINDS) expect(sent).toContainEqual(expect.stringMatching(new RegExp(`^ControlPlaneQueues${kind.kind}DeadLetterQueue[0-9A-F]{8}$`)));
  });

  it('is the only function that may invoke another', () => {
    const invokers = functions.filter((f) => f.statements.some((s) => s.actions.includes('lambda:InvokeFunction')));
    expect(invokers.map((f) => f.serviceName)).toEqual(['capless-dispatch']);
  });
});

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
    if (access === 'read Secrets but not write them') {
      expect(secrets.flatMap((s) => s.actions)).toEqual(expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:Query']));
      expect(secrets.flatMap((s) => s.actions).filter((a) => /Put|Update|Delete|Write/.test(a))).toEqual([]);
    } else if (access === 'read and write Secrets') {
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
  it.each(['capless-router', 'capless-resync'])('%s may send only to the shared work queue', (serviceName) => {
    expect(sentQueues(fn(serviceName))).toEqual([expect.stringMatching(/^ControlPlaneQueuesSharedWorkQueue[0-9A-F]{8}$/)]);
  });

  it.each(RECONCILED_KINDS.map((k) => [k.kind]))('the %s reconciler may send only to the shared work queue and its own dead-letter queue', (kind) => {
    const sent = sentQueues(fn(`capless-reconcile-${kind.toLowerCase()}`));
    expect(sent).toEqual([
      expect.stringMatching(new RegExp(`^ControlPlaneQueues${kind}DeadLetterQueue[0-9A-F]{8}$`)),
      expect.stringMatching(/^ControlPlaneQueuesSharedWorkQueue[0-9A-F]{8}$/),
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

describe('the watch log (ADR 0080)', () => {
  const touching = (f: FunctionPolicy) => f.statements.filter(isWatchLogStatement).flatMap((s) => s.actions).sort();

  it('only the watch function reads it, and only by Query', () => {
    const readers = functions.filter((f) => touching(f).some((a) => !/Put|Write/.test(a)));
    expect(readers.map((f) => f.serviceName)).toEqual(['capless-watch']);
    expect(touching(fn('capless-watch'))).toEqual(['dynamodb:Query']);
  });

  it('only the router writes it, and only puts', () => {
    const writers = functions.filter((f) => touching(f).some((a) => /Put|Write/.test(a)));
    expect(writers.map((f) => f.serviceName)).toEqual(['capless-router']);
    expect(touching(fn('capless-router'))).toEqual(['dynamodb:BatchWriteItem', 'dynamodb:PutItem']);
  });
});

describe('object writes', () => {
  const writesOf = (serviceName: string) => itemStatements(fn(serviceName)).filter((s) => s.actions.includes('dynamodb:PutItem') || s.actions.includes('dynamodb:UpdateItem'));

  it('the router writes only work items, never objects', () => {
    expect(writesOf('capless-router').map((s) => leadingKeys(s, 'ForAllValues:StringLike'))).toEqual([['work#*']]);
  });

  it('the resync writes nothing: its per-cluster messages take no work record (ADR 0110)', () => {
    expect(writesOf('capless-resync')).toEqual([]);
  });
});
