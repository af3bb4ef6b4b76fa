import { MESSAGES } from '@fleetdeck/contract';

/** Status used for failures that never reached the server (offline, DNS, aborted proxy). */
export const NETWORK_ERROR_STATUS = 0;

/**
 * A failed API call. `description` is what the UI shows; `error_code` mirrors the failure body
 * (`{"status":"failure","description","error_code"}`) and is null when the body was not one.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly description: string;
  readonly error_code: number | null;
  /** The `role` a failure body may carry (a failed user create names the requested roles). */
  readonly role: string | null;

  constructor(
    status: number,
    description: string,
    errorCode: number | null,
    options?: ErrorOptions & { role?: string | null },
  ) {
    super(description, options);
    this.name = 'ApiError';
    this.status = status;
    this.description = description;
    this.error_code = errorCode;
    this.role = options?.role ?? null;
  }
}

/** Narrows an unknown thrown value to an ApiError. */
export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether a parsed JSON body is the server's failure body. */
export function isFailureBody(body: unknown): boolean {
  return isRecord(body) && body.status === 'failure';
}

/**
 * Builds the ApiError for a non-success answer. Hand-checked rather than parsed with zod so the
 * entry chunk stays small; a body that is not a failure body falls back to the generic message.
 */
export function toApiError(status: number, body: unknown): ApiError {
  if (isRecord(body)) {
    const description =
      typeof body.description === 'string' && body.description.trim() !== ''
        ? body.description
        : MESSAGES.somethingWentWrong;
    const errorCode =
      typeof body.error_code === 'number' && Number.isInteger(body.error_code)
        ? body.error_code
        : null;
    const role = typeof body.role === 'string' && body.role.trim() !== '' ? body.role : null;
    return new ApiError(status, description, errorCode, { role });
  }
  return new ApiError(status, MESSAGES.somethingWentWrong, null);
}

/** The text to show for any failure: the server's description, else the spec's generic message. */
export function errorMessage(error: unknown): string {
  if (isApiError(error) && error.description.trim() !== '') return error.description;
  return MESSAGES.somethingWentWrong;
}

/**
 * Whether a failure means the session is gone: a 401, or the description 'Unauthorized'
 * (access §8: "401 or description 'Unauthorized' on any call").
 */
export function isSessionFailure(error: ApiError): boolean {
  return error.status === 401 || error.description === MESSAGES.unauthorizedDescription;
}

/** Client errors are not retried: asking again gives the same answer. */
export function isClientError(error: unknown): boolean {
  return isApiError(error) && error.status >= 400 && error.status < 500;
}
