// One closed set of error types for the whole system. Each maps once to an HTTP status (the REST
// contract) and once to a gRPC status (between services); details travel across gRPC in the
// `verdict-error-bin` trailer so the gateway rebuilds exactly the error a service raised.
import { Metadata, status as GrpcStatus, type ServiceError } from "@grpc/grpc-js";

export type FieldErrorCode = "REQUIRED" | "INVALID_FORMAT" | "MAX_SIZE_EXCEEDED" | "MIN_SIZE_REQUIRED" | "INVALID_ENUM";

export interface FieldError {
  field: string;
  message: string;
  code: FieldErrorCode;
  max?: number;
  min?: number;
}

export type ErrorKind =
  | "validation" // 400: the request is malformed or does not match the schema
  | "unprocessable" // 422: well-formed, but breaks a rule of the domain
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "method_not_allowed"
  | "deleted"
  | "conflict"
  | "precondition_failed" // 412: If-Match names a version the resource has moved past
  | "too_large" // 413: the request body is larger than its route takes (refused unread)
  | "rate_limited"
  | "unavailable"
  | "dependency"
  | "internal";

interface KindInfo {
  http: number;
  grpc: GrpcStatus;
  error: string;
}

const KINDS: Record<ErrorKind, KindInfo> = {
  validation: { http: 400, grpc: GrpcStatus.INVALID_ARGUMENT, error: "validation_error" },
  unprocessable: { http: 422, grpc: GrpcStatus.FAILED_PRECONDITION, error: "validation_error" },
  unauthorized: { http: 401, grpc: GrpcStatus.UNAUTHENTICATED, error: "unauthorized" },
  forbidden: { http: 403, grpc: GrpcStatus.PERMISSION_DENIED, error: "forbidden" },
  not_found: { http: 404, grpc: GrpcStatus.NOT_FOUND, error: "not_found" },
  method_not_allowed: { http: 405, grpc: GrpcStatus.UNIMPLEMENTED, error: "method_not_allowed" },
  deleted: { http: 410, grpc: GrpcStatus.NOT_FOUND, error: "not_found" },
  conflict: { http: 409, grpc: GrpcStatus.ALREADY_EXISTS, error: "conflict" },
  precondition_failed: { http: 412, grpc: GrpcStatus.ABORTED, error: "precondition_failed" },
  too_large: { http: 413, grpc: GrpcStatus.INVALID_ARGUMENT, error: "validation_error" },
  rate_limited: { http: 429, grpc: GrpcStatus.RESOURCE_EXHAUSTED, error: "rate_limited" },
  unavailable: { http: 503, grpc: GrpcStatus.UNAVAILABLE, error: "service_unavailable" },
  dependency: { http: 503, grpc: GrpcStatus.UNAVAILABLE, error: "service_unavailable" },
  internal: { http: 500, grpc: GrpcStatus.INTERNAL, error: "internal_error" },
};

export class AppError extends Error {
  constructor(
    readonly kind: ErrorKind,
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
    /** Extra top-level members of the REST error body (the spec's `required_scope`). */
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
    this.name = "AppError";
  }

  get httpStatus(): number {
    return KINDS[this.kind].http;
  }

  get errorType(): string {
    return KINDS[this.kind].error;
  }
}

export const errors = {
  /** Schema-level problems: 400. */
  validation(fieldErrors: FieldError[], message = "Request validation failed"): AppError {
    return new AppError("validation", "VALIDATION_FAILED", message, { errors: fieldErrors });
  },
  /** Domain-rule problems on a well-formed request: 422. */
  unprocessable(fieldErrors: FieldError[], message = "Request validation failed"): AppError {
    return new AppError("unprocessable", "VALIDATION_FAILED", message, { errors: fieldErrors });
  },
  notFound(resourceType: string, resourceId: string): AppError {
    return new AppError("not_found", "RESOURCE_NOT_FOUND", `${resourceType} '${resourceId}' does not exist`, {
      resource_type: resourceType,
      resource_id: resourceId,
    });
  },
  deleted(resourceType: string, resourceId: string): AppError {
    return new AppError("deleted", "RESOURCE_DELETED", `${resourceType} '${resourceId}' was deleted`, {
      resource_type: resourceType,
      resource_id: resourceId,
    });
  },
  alreadyExists(resourceType: string, resourceId: string): AppError {
    return new AppError("conflict", "RESOURCE_ALREADY_EXISTS", `${resourceType} '${resourceId}' already exists`, {
      resource_type: resourceType,
      resource_id: resourceId,
    });
  },
  unauthorized(
    code: "AUTH_MISSING_KEY" | "AUTH_INVALID_KEY" | "AUTH_EXPIRED_KEY" | "AUTH_REVOKED_KEY",
    message: string,
  ): AppError {
    return new AppError("unauthorized", code, message);
  },
  insufficientScope(requiredScope: string, currentScopes: string[]): AppError {
    return new AppError(
      "forbidden",
      "AUTH_INSUFFICIENT_SCOPE",
      `This operation needs the '${requiredScope}' scope`,
      { required_scope: requiredScope, current_scopes: currentScopes },
      { required_scope: requiredScope },
    );
  },
  forbidden(
    code: "AUTH_IP_NOT_ALLOWED" | "AUTH_ORG_ACCESS_DENIED",
    message: string,
    details?: Record<string, unknown>,
  ): AppError {
    return new AppError("forbidden", code, message, details);
  },
  unavailable(message = "Service temporarily unavailable"): AppError {
    return new AppError("unavailable", "SERVICE_UNAVAILABLE", message);
  },
  dependency(message: string): AppError {
    return new AppError("dependency", "DEPENDENCY_FAILURE", message);
  },
  internal(message = "An unexpected error occurred"): AppError {
    return new AppError("internal", "INTERNAL_ERROR", message);
  },
};

/** The REST error body of the spec. */
export function errorBody(err: AppError, requestId: string): Record<string, unknown> {
  return {
    error: err.errorType,
    code: err.code,
    message: err.message,
    ...(err.extra ?? {}),
    ...(err.details ? { details: err.details } : {}),
    request_id: requestId,
  };
}

const TRAILER = "verdict-error-bin";

export function toGrpcError(err: AppError): Partial<ServiceError> {
  const metadata = new Metadata();
  metadata.set(
    TRAILER,
    Buffer.from(JSON.stringify({ kind: err.kind, code: err.code, details: err.details, extra: err.extra }), "utf8"),
  );
  return { code: KINDS[err.kind].grpc, details: err.message, metadata };
}

/** Rebuilds the AppError a service raised; anything else becomes a transport-level error. */
export function fromGrpcError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  const se = err as Partial<ServiceError>;
  const raw = se.metadata?.get(TRAILER)?.[0];
  if (raw) {
    try {
      const parsed = JSON.parse(Buffer.isBuffer(raw) ? raw.toString("utf8") : String(raw)) as {
        kind: ErrorKind;
        code: string;
        details?: Record<string, unknown>;
        extra?: Record<string, unknown>;
      };
      if (parsed.kind in KINDS) {
        return new AppError(parsed.kind, parsed.code, se.details ?? "", parsed.details, parsed.extra);
      }
    } catch {
      // fall through to the status-based mapping
    }
  }
  if (se.code === GrpcStatus.DEADLINE_EXCEEDED) {
    return errors.unavailable("A Verdict service did not answer in time; retry with backoff");
  }
  if (se.code === GrpcStatus.UNAVAILABLE) {
    return errors.unavailable("A Verdict service could not be reached; retry with backoff");
  }
  return errors.internal();
}
