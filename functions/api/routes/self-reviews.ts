/**
 * The self-review APIs clients ask before acting: SelfSubjectAccessReview (`kubectl auth can-i
 * VERB RESOURCE`, and UIs deciding which actions to offer), SelfSubjectRulesReview (`kubectl auth
 * can-i --list`) and SelfSubjectReview (`kubectl auth whoami`). Answered from the caller's
 * principal and the served kinds, with the rules the API itself enforces: every served verb on
 * every kind, the read-only kinds' reads, and Secrets by secret-access.ts. Nothing is stored.
 */

import { type JsonRecord, isRecord, stringAt } from '../../../shared/contracts/json.js';
import type { KindInfo, KindRegistry } from '../../../shared/contracts/kinds.js';
import { BadRequestError, InvalidError, MethodNotAllowedError, type StatusCause } from '../../../shared/errors/index.js';
import type { Principal } from '../auth.js';
import { parseObjectBody } from '../body.js';
import { type ApiRequest, type ApiResponse, jsonResponse } from '../http.js';
import { type SecretVerb, secretVerbAllowed } from '../secret-access.js';

interface ReviewResource {
  group: string;
  version: string;
  plural: string;
  kind: string;
}

/** The review resources, for discovery: create only, cluster-scoped. */
export const REVIEW_RESOURCES: readonly ReviewResource[] = [
  { group: 'authorization.k8s.io', version: 'v1', plural: 'selfsubjectaccessreviews', kind: 'SelfSubjectAccessReview' },
  { group: 'authorization.k8s.io', version: 'v1', plural: 'selfsubjectrulesreviews', kind: 'SelfSubjectRulesReview' },
  { group: 'authentication.k8s.io', version: 'v1', plural: 'selfsubjectreviews', kind: 'SelfSubjectReview' },
];

const OBJECT_VERBS = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'] as const;
const READ_VERBS = ['get', 'list', 'watch'] as const;
const SUBRESOURCE_VERBS = ['get', 'patch', 'update'] as const;
/** Paths served without a resource: discovery, OpenAPI, health. */
const NON_RESOURCE_URLS = ['/api', '/api/*', '/apis', '/apis/*', '/version', '/openapi/*', '/healthz', '/livez', '/readyz'];

/** The answer to a POST on a review resource; undefined for any other path. */
export function selfReviewResponse(request: ApiRequest, principal: Principal, kinds: KindRegistry): ApiResponse | undefined {
  const path = request.path.replace(/\/+$/, '');
  const review = REVIEW_RESOURCES.find((r) => path === `/apis/${r.group}/${r.version}/${r.plural}`);
  if (!review) return undefined;
  if (request.method !== 'POST') throw new MethodNotAllowedError(`${review.plural}.${review.group} can only be created (POST), got ${request.method}`);
  const body = parseObjectBody(request);
  checkEnvelope(body, review);
  const spec = isRecord(body) && isRecord(body.spec) ? body.spec : {};
  const status =
    review.kind === 'SelfSubjectAccessReview'
      ? accessReview(spec, principal, kinds)
      : review.kind === 'SelfSubjectRulesReview'
        ? rulesReview(spec, principal, kinds)
        : { userInfo: { username: principal.name, groups: ['system:authenticated'] } };
  return jsonResponse(201, { kind: review.kind, apiVersion: `${review.group}/${review.version}`, metadata: {}, ...(review.kind === 'SelfSubjectReview' ? {} : { spec }), status });
}

function checkEnvelope(body: unknown, review: ReviewResource): void {
  if (!isRecord(body)) throw new BadRequestError(`the request body must be a ${review.kind}`);
  const apiVersion = stringAt(body, 'apiVersion');
  const causes: StatusCause[] = [];
  if (apiVersion !== undefined && apiVersion !== `${review.group}/${review.version}`) causes.push({ field: 'apiVersion', reason: 'FieldValueInvalid', message: `must be ${review.group}/${review.version}` });
  if (body.kind !== undefined && body.kind !== review.kind) causes.push({ field: 'kind', reason: 'FieldValueInvalid', message: `must be ${review.kind}` });
  if (body.spec !== undefined && !isRecord(body.spec)) causes.push({ field: 'spec', reason: 'FieldValueInvalid', message: 'must be an object' });
  if (causes.length > 0) throw invalid(review.kind, causes);
}

function invalid(kind: string, causes: StatusCause[]): InvalidError {
  return new InvalidError(`${kind} is invalid: ${causes.map((c) => `${c.field}: ${c.message}`).join(', ')}`, { causes, details: { kind } });
}

interface Decision {
  allowed: boolean;
  reason: string;
}

function accessReview(spec: JsonRecord, principal: Principal, kinds: KindRegistry): JsonRecord {
  const resource = spec.resourceAttributes;
  const nonResource = spec.nonResourceAttributes;
  if ((resource === undefined) === (nonResource === undefined) || (resource !== undefined && !isRecord(resource)) || (nonResource !== undefined && !isRecord(nonResource))) {
    throw invalid('SelfSubjectAccessReview', [{ field: 'spec.resourceAttributes', reason: 'FieldValueInvalid', message: 'exactly one of nonResourceAttributes or resourceAttributes must be specified' }]);
  }
  const decision = isRecord(resource) ? resourceDecision(resource, principal, kinds) : nonResourceDecision(isRecord(nonResource) ? nonResource : {});
  return decision.allowed ? { allowed: true, reason: decision.reason } : { allowed: false, reason: decision.reason };
}

function resourceDecision(attributes: JsonRecord, principal: Principal, kinds: KindRegistry): Decision {
  const verb = stringAt(attributes, 'verb') ?? '';
  const group = stringAt(attributes, 'group') ?? '';
  const plural = stringAt(attributes, 'resource') ?? '';
  const subresource = stringAt(attributes, 'subresource') ?? '';
  if (plural === '*') {
    const all = kinds.all().filter((k) => group === '*' || k.group === group);
    const denied = all.find((k) => !verbsOn(k, '', principal).includes(verb));
    return denied ? { allowed: false, reason: `capless: ${verb} is not allowed on ${denied.plural}` } : { allowed: all.length > 0, reason: `capless: ${verb} is allowed on every resource asked for` };
  }
  const info = kinds.byResource(group, plural);
  if (!info) return { allowed: false, reason: `capless serves no resource ${JSON.stringify(plural)} in group ${JSON.stringify(group)}` };
  const verbs = verbsOn(info, subresource, principal);
  const what = `${plural}${subresource ? `/${subresource}` : ''}${group ? `.${group}` : ''}`;
  return verbs.includes(verb) ? { allowed: true, reason: `capless: ${principal.name} may ${verb} ${what}` } : { allowed: false, reason: `capless: ${verb} is not allowed on ${what}` };
}

/** The verbs the API serves this principal on a kind (or one of its subresources). */
function verbsOn(info: KindInfo, subresource: string, principal: Principal): string[] {
  if (subresource !== '') {
    const served = (subresource === 'status' && info.statusSubresource) || (subresource === 'scale' && info.scale !== undefined);
    return served && !info.readOnly ? SUBRESOURCE_VERBS.filter((verb) => info.sensitive !== true || secretVerbAllowed(principal, secretVerbOf(verb))) : [];
  }
  const verbs: readonly (SecretVerb | 'watch')[] = info.readOnly ? READ_VERBS : OBJECT_VERBS;
  return verbs.filter((verb) => info.sensitive !== true || secretVerbAllowed(principal, secretVerbOf(verb)));
}

/** A watch shows what a list shows. */
function secretVerbOf(verb: SecretVerb | 'watch'): SecretVerb {
  return verb === 'watch' ? 'list' : verb;
}

function nonResourceDecision(attributes: JsonRecord): Decision {
  const verb = stringAt(attributes, 'verb') ?? '';
  const path = stringAt(attributes, 'path') ?? '';
  const served = NON_RESOURCE_URLS.some((url) => (url.endsWith('/*') ? path.startsWith(url.slice(0, -1)) || path === url.slice(0, -2) : path === url));
  return verb === 'get' && served ? { allowed: true, reason: `capless serves ${path}` } : { allowed: false, reason: `capless: ${verb} ${path} is not served` };
}

function rulesReview(spec: JsonRecord, principal: Principal, kinds: KindRegistry): JsonRecord {
  if (typeof spec.namespace !== 'string' || spec.namespace === '') {
    throw invalid('SelfSubjectRulesReview', [{ field: 'spec.namespace', reason: 'FieldValueRequired', message: 'Required value' }]);
  }
  const resourceRules = kinds.all().flatMap((info) => {
    const rules = [{ verbs: verbsOn(info, '', principal), apiGroups: [info.group], resources: [info.plural] }];
    for (const subresource of ['status', 'scale']) {
      const verbs = verbsOn(info, subresource, principal);
      if (verbs.length > 0) rules.push({ verbs, apiGroups: [info.group], resources: [`${info.plural}/${subresource}`] });
    }
    return rules.filter((rule) => rule.verbs.length > 0);
  });
  const reviews = REVIEW_RESOURCES.map((r) => ({ verbs: ['create'], apiGroups: [r.group], resources: [r.plural] }));
  return { resourceRules: [...resourceRules, ...reviews], nonResourceRules: [{ verbs: ['get'], nonResourceURLs: NON_RESOURCE_URLS }], incomplete: false };
}
