/** The transport-neutral request and response the API routes see (API Gateway and the embedded server adapt to it). */

export interface ApiRequest {
  method: string;
  /** Path without query string, e.g. `/apis/cluster.x-k8s.io/v1beta2/namespaces/default/clusters`. */
  path: string;
  query: URLSearchParams;
  /** Lower-case header names. */
  headers: Record<string, string | undefined>;
  /** Raw body text ('' when none). */
  body: string;
  /** The body's bytes, for a body that is not text (a protobuf create); the transports set it. */
  bodyBytes?: Uint8Array;
}

export interface ApiResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** A binary body (the protobuf OpenAPI v2 document): `body` is empty and the transport sends these bytes instead. */
  bytes?: Uint8Array;
  /** A response written over time (a watch): `body` is empty and the transport drives this instead. */
  stream?: ResponseStream;
}

/** Where a streaming response writes; `write` returns false when the client is not keeping up. */
export interface StreamSink {
  write(chunk: string): boolean;
  end(): void;
}

/** A response that writes chunks until it ends itself or the client goes away. */
export interface ResponseStream {
  /** Begins writing; called once, by the transport. */
  start(sink: StreamSink): void;
  /** The sink can take more after `write` returned false. */
  drained(): void;
  /** The client went away: release everything. */
  cancel(): void;
}

export function jsonResponse(status: number, value: unknown): ApiResponse {
  return { status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(value) };
}

/** Largest request body accepted (API Gateway's own limit is 10 MB; objects must fit DynamoDB's 400 KB). */
export const MAX_BODY_BYTES = 1024 * 1024;
