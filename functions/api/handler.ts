import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { handleApiRequest } from './api.js';
import { authorizerPrincipal, httpApiResult, requestFromHttpApiEvent } from './aws-event.js';
import { apiWiring } from './wiring.js';

const deps = apiWiring();

/** API Gateway HTTP API (payload 2.0) → the management API. The authorizer already ran. */
export async function handler(event: APIGatewayProxyEventV2): Promise<APIGatewayProxyStructuredResultV2> {
  const response = await handleApiRequest(requestFromHttpApiEvent(event), { ...deps, authenticate: authorizerPrincipal(event) });
  return httpApiResult(response);
}
