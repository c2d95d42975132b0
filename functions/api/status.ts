import { ApiError, type StatusCause } from '../../shared/errors/index.js';
import { type ApiResponse, jsonResponse } from './http.js';

/** A Kubernetes `Status` object (metav1.Status). */
export interface KubeStatus {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, never>;
  status: 'Success' | 'Failure';
  message: string;
  reason: string;
  details?: { name?: string; group?: string; kind?: string; causes?: StatusCause[] };
  code: number;
}

export function statusFromError(error: unknown): KubeStatus {
  if (error instanceof ApiError) {
    const details = {
      ...error.details,
      ...(error.causes.length > 0 ? { causes: error.causes } : {}),
    };
    return {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: error.message,
      reason: error.reason,
      ...(Object.keys(details).length > 0 ? { details } : {}),
      code: error.code,
    };
  }
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: 'internal error',
    reason: 'InternalError',
    code: 500,
  };
}

export function errorResponse(error: unknown): ApiResponse {
  const status = statusFromError(error);
  return jsonResponse(status.code, status);
}

export function successStatus(details: KubeStatus['details']): KubeStatus {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', message: '', reason: '', ...(details ? { details } : {}), code: 200 };
}
