import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { lambdaTelemetry } from '../../shared/adapters/aws/powertools/lambda-telemetry.js';
import { handleApiRequest } from './api.js';
import { authorizerPrincipal, httpApiResult, requestFromHttpApiEvent } from './aws-event.js';
import { apiWiring } from './wiring.js';

const telemetry = lambdaTelemetry('capless-api');
const deps = apiWiring(telemetry.logger);

/** API Gateway HTTP API (payload 2.0) → the management API. The authorizer already ran. */
export const handler = telemetry.instrument(
  async (event: APIGatewayProxyEventV2): Promise<APIGatewayProxyStructuredResultV2> => {
    const response = await handleApiRequest(requestFromHttpApiEvent(event), { ...deps, authenticate: authorizerPrincipal(event) });
    return httpApiResult(response);
  },
  (result) => ({ [`Responses${String(result.statusCode ?? 0).slice(0, 1)}xx`]: 1 }),
);
