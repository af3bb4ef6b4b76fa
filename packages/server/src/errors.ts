import { ERROR_CODES, MESSAGES, SERVER_MESSAGES } from '@fleetdeck/contract';

/** An error that reaches the caller as a failure body with this status and code. */
export class AppError extends Error {
  constructor(
    public readonly statusCode: number,
    public readonly errorCode: number,
    description: string,
  ) {
    super(description);
    this.name = 'AppError';
  }
}

/** 400: bad input or a business rule refused the request. */
export const badRequest = (
  description: string,
  errorCode: number = ERROR_CODES.invalidRequestBody,
) => new AppError(400, errorCode, description);

/** 401: no valid session. The SPA treats every 401 as an expired session. */
export const unauthorized = (errorCode: number = ERROR_CODES.accessTokenMissing) =>
  new AppError(401, errorCode, MESSAGES.unauthorizedDescription);

/** 403: signed in, but the role does not allow it. */
export const forbidden = (description: string = SERVER_MESSAGES.forbidden) =>
  new AppError(403, ERROR_CODES.forbidden, description);

/** 404: the thing does not exist (or is not visible to the caller). */
export const notFound = (
  description: string = SERVER_MESSAGES.notFound,
  errorCode: number = ERROR_CODES.notFound,
) => new AppError(404, errorCode, description);

/** 429: a rate limit was hit. */
export const tooManyRequests = (description: string = SERVER_MESSAGES.tooManyRequests) =>
  new AppError(429, ERROR_CODES.tooManyRequests, description);
