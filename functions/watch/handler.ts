import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { lambdaTelemetry } from '../../shared/adapters/aws/powertools/lambda-telemetry.js';
import { authorizerPrincipal, requestFromHttpApiEvent } from '../api/aws-event.js';
import { lambdaStreaming } from './lambda-streaming.js';
import { serveWatch } from './serve-watch.js';
import { watchWiring } from './wiring.js';
import { writeResponse } from './write-response.js';

const telemetry = lambdaTelemetry('capless-watch');
const deps = watchWiring(telemetry.logger);
const runtime = lambdaStreaming();

/**
 * The watch function (ADR 0080): a Lambda function URL with `InvokeMode: RESPONSE_STREAM` and
 * `AuthType: AWS_IAM` (the URL's event carries the caller as API Gateway's IAM authorizer does),
 * streaming `?watch=true` on every list path from the watch log table.
 */
export const handler = runtime.streamifyResponse(async (event: APIGatewayProxyEventV2, responseStream) => {
  const response = await serveWatch(requestFromHttpApiEvent(event), { ...deps, authenticate: authorizerPrincipal(event) });
  await writeResponse(response, runtime.HttpResponseStream.from(responseStream, { statusCode: response.status, headers: response.headers }));
});
