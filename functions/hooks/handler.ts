import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { lambdaTelemetry } from '../../shared/adapters/aws/powertools/lambda-telemetry.js';
import { secretStringReader } from '../../shared/adapters/aws/secrets-manager/secret-string.js';
import { httpApiResult, requestFromHttpApiEvent } from '../api/aws-event.js';
import type { ApiRequest, ApiResponse } from '../api/http.js';
import { builtinExtensions } from './builtin-extensions.js';
import { hostedExtensionsHandler } from './hosted-extensions.js';

/** Environment of the hosted extensions function. */
export const HOOKS_ENV = {
  /** ARN of the Secrets Manager secret holding the path secret (ADR 0100). */
  pathSecretArn: 'HOOKS_PATH_SECRET_ARN',
} as const;

const telemetry = lambdaTelemetry('capless-hooks');
const readSecret = secretStringReader(process.env[HOOKS_ENV.pathSecretArn] ?? '');
let hosted: ((request: ApiRequest) => Promise<ApiResponse>) | undefined;

/**
 * API Gateway HTTP API (payload 2.0), route `POST /hooks/{proxy+}` without an authorizer: a
 * Cluster API runtime client can send neither SigV4 nor a JWT, so the credential is the path
 * secret, checked here before any extension runs.
 */
export const handler = telemetry.instrument(
  async (event: APIGatewayProxyEventV2): Promise<APIGatewayProxyStructuredResultV2> => {
    hosted ??= hostedExtensionsHandler({ extensions: builtinExtensions(), pathSecret: await readSecret() });
    return httpApiResult(await hosted(requestFromHttpApiEvent(event)));
  },
  (result) => ({ [`Responses${String(result.statusCode ?? 0).slice(0, 1)}xx`]: 1 }),
);
