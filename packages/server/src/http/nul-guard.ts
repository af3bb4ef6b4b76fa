import { ERROR_CODES, SERVER_MESSAGES } from '@fleetdeck/contract';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors.js';
import { containsLoneSurrogate, containsNul } from '../nul.js';

/**
 * Refuses any request whose query, path or JSON body carries a NUL character or a lone surrogate
 * (text that is not valid Unicode), before validation.
 * No text Fleetdeck keeps may hold one, and PostgreSQL refuses it in text columns (a 500 before
 * this guard, found by the API fuzzer, QUALITY R10).
 */
export function registerNulGuard(app: FastifyInstance): void {
  app.addHook('preValidation', (request, _reply, done) => {
    const inQuery = (check: (value: unknown) => boolean) =>
      check(request.query) || check(request.params);
    if (inQuery(containsNul)) {
      done(new AppError(400, ERROR_CODES.invalidQueryParam, SERVER_MESSAGES.nulCharacter));
    } else if (containsNul(request.body)) {
      done(new AppError(400, ERROR_CODES.invalidRequestBody, SERVER_MESSAGES.nulCharacter));
    } else if (inQuery(containsLoneSurrogate)) {
      // Text that is not valid Unicode would be stored changed (U+FFFD), so it is refused.
      done(new AppError(400, ERROR_CODES.invalidQueryParam, SERVER_MESSAGES.loneSurrogate));
    } else if (containsLoneSurrogate(request.body)) {
      done(new AppError(400, ERROR_CODES.invalidRequestBody, SERVER_MESSAGES.loneSurrogate));
    } else {
      done();
    }
  });
}
