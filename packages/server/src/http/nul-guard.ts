import { ERROR_CODES, SERVER_MESSAGES } from '@fleetdeck/contract';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors.js';

/**
 * Whether a parsed query, path or JSON body holds a string with the NUL character anywhere (keys
 * included). Walks with its own stack, so a deeply nested body cannot overflow the call stack.
 */
export function containsNul(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === 'string') {
      if (next.includes('\u0000')) return true;
    } else if (Array.isArray(next)) {
      for (const item of next) pending.push(item);
    } else if (next !== null && typeof next === 'object' && !Buffer.isBuffer(next)) {
      for (const [key, item] of Object.entries(next)) {
        if (key.includes('\u0000')) return true;
        pending.push(item);
      }
    }
  }
  return false;
}

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
