import { ERROR_CODES, SERVER_MESSAGES } from '@fleetdeck/contract';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors.js';
import { containsNul } from '../nul.js';

/**
 * Refuses any request whose query, path or JSON body carries a NUL character, before validation.
 * No text Fleetdeck keeps may hold one, and PostgreSQL refuses it in text columns (a 500 before
 * this guard, found by the API fuzzer, QUALITY R10).
 */
export function registerNulGuard(app: FastifyInstance): void {
  app.addHook('preValidation', (request, _reply, done) => {
    if (containsNul(request.query) || containsNul(request.params)) {
      done(new AppError(400, ERROR_CODES.invalidQueryParam, SERVER_MESSAGES.nulCharacter));
    } else if (containsNul(request.body)) {
      done(new AppError(400, ERROR_CODES.invalidRequestBody, SERVER_MESSAGES.nulCharacter));
    } else {
      done();
    }
  });
}
