import { MESSAGES } from '@fleetdeck/contract';
import { describe, expect, it } from 'vitest';
import {
  ApiError,
  errorMessage,
  isClientError,
  isFailureBody,
  isSessionFailure,
  toApiError,
} from './api-error';

describe('toApiError', () => {
  it('carries the status, description and error code of a failure body', () => {
    const error = toApiError(400, {
      status: 'failure',
      description: 'Incorrect user name or password',
      error_code: 101009,
    });
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 400,
      description: 'Incorrect user name or password',
      error_code: 101009,
    });
  });

  it('keeps the role a failed user create names, and none when the body has none', () => {
    const error = toApiError(400, {
      status: 'failure',
      description: 'User account already exist',
      error_code: 101006,
      role: 'service_engineer_role',
    });
    expect(error.role).toBe('service_engineer_role');
    expect(toApiError(400, { status: 'failure', description: 'x', role: 7 }).role).toBeNull();
  });

  it('falls back to the generic message when the body has no description', () => {
    expect(toApiError(502, null).description).toBe(MESSAGES.somethingWentWrong);
    expect(toApiError(500, { status: 'failure', description: '  ' }).description).toBe(
      MESSAGES.somethingWentWrong,
    );
    expect(toApiError(500, 'oops').error_code).toBeNull();
  });
});

describe('errorMessage', () => {
  it("shows the server's description", () => {
    expect(errorMessage(new ApiError(429, 'Too many requests, try again later', 100070))).toBe(
      'Too many requests, try again later',
    );
  });

  it("falls back to 'Something went wrong!' for anything else", () => {
    expect(errorMessage(new Error('boom'))).toBe('Something went wrong!');
    expect(errorMessage(undefined)).toBe('Something went wrong!');
    expect(errorMessage(new ApiError(500, '', null))).toBe('Something went wrong!');
  });
});

describe('isSessionFailure', () => {
  it('treats a 401 and the description Unauthorized as a lost session', () => {
    expect(isSessionFailure(new ApiError(401, 'whatever', null))).toBe(true);
    expect(isSessionFailure(new ApiError(400, 'Unauthorized', null))).toBe(true);
  });

  it('does not treat other failures as a lost session', () => {
    expect(isSessionFailure(new ApiError(400, 'Incorrect user name or password', 101009))).toBe(
      false,
    );
    expect(isSessionFailure(new ApiError(403, 'Forbidden', 100004))).toBe(false);
  });
});

describe('isClientError and isFailureBody', () => {
  it('marks only 4xx answers as client errors', () => {
    expect(isClientError(new ApiError(404, 'Not found', 100015))).toBe(true);
    expect(isClientError(new ApiError(503, 'down', null))).toBe(false);
    expect(isClientError(new ApiError(0, 'offline', null))).toBe(false);
    expect(isClientError(new Error('x'))).toBe(false);
  });

  it('recognises the failure body', () => {
    expect(isFailureBody({ status: 'failure', description: 'x', error_code: 1 })).toBe(true);
    expect(isFailureBody({ status: 'success', description: 'x' })).toBe(false);
    expect(isFailureBody([])).toBe(false);
  });
});
