import { ERROR_CODES, SERVER_MESSAGES, type FailureBody } from '@fleetdeck/contract';
import type {
  FastifyError,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifySchemaValidationError,
} from 'fastify';
import type { Duplex } from 'node:stream';
import { z } from 'zod';
import { isDatabaseBusy, isTransientConflict } from '../db/transaction-retry.js';
import { AppError } from '../errors.js';
import { storageFailureOf } from '../storage/storage-errors.js';

/** Sends the one failure body every error becomes. */
export function sendFailure(
  reply: FastifyReply,
  statusCode: number,
  description: string,
  errorCode: number,
): FastifyReply {
  const body: FailureBody = { status: 'failure', description, error_code: errorCode };
  return reply.code(statusCode).type('application/json; charset=utf-8').send(body);
}

/**
 * The single error handler: typed errors keep their status and code, validation errors show the
 * schema's (spec) message, framework 4xx errors keep their status, a full disk is a 507 and a
 * storage I/O error a 503 (QUALITY R2), a write PostgreSQL still aborted for a deadlock or a
 * serialization failure after its retries, or one SQLite could not start because another process
 * held its write lock past the busy timeout, a 503 (ADR 37), and anything else is logged and becomes
 * a plain 500 without internals.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler(
    (error: FastifyError | AppError | Error, request: FastifyRequest, reply: FastifyReply) => {
      // Answered before its body was read to the end (an upload refused half-way, e.g. on a full
      // disk): the rest of the body would wait in this connection and the client's next request
      // on it would hang, so the connection closes after this answer.
      if (!request.raw.complete) reply.header('connection', 'close');
      if (error instanceof AppError) {
        return sendFailure(reply, error.statusCode, error.message, error.errorCode);
      }
      const fastifyError = error as FastifyError;
      if (fastifyError.validation && fastifyError.validation.length > 0) {
        const first = fastifyError.validation[0];
        const inQuery =
          fastifyError.validationContext === 'querystring' ||
          fastifyError.validationContext === 'params';
        const description =
          (first && validationDescription(first, inQuery)) ||
          (inQuery ? SERVER_MESSAGES.invalidQueryParam : SERVER_MESSAGES.invalidRequestBody);
        return sendFailure(
          reply,
          400,
          description,
          inQuery ? ERROR_CODES.invalidQueryParam : ERROR_CODES.invalidRequestBody,
        );
      }
      const status = typeof fastifyError.statusCode === 'number' ? fastifyError.statusCode : 500;
      if (status === 413)
        return sendFailure(
          reply,
          413,
          SERVER_MESSAGES.payloadTooLarge,
          ERROR_CODES.payloadTooLarge,
        );
      if (status === 429)
        return sendFailure(
          reply,
          429,
          SERVER_MESSAGES.tooManyRequests,
          ERROR_CODES.tooManyRequests,
        );
      if (status >= 400 && status < 500) {
        const description =
          fastifyError.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError
            ? 'Invalid JSON received'
            : fastifyError.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
              ? SERVER_MESSAGES.invalidRequestBody
              : error.message;
        return sendFailure(
          reply,
          status,
          description,
          status === 405 ? ERROR_CODES.methodNotAllowed : ERROR_CODES.invalidRequestBody,
        );
      }
      const storage = storageFailureOf(error);
      if (storage === 'full') {
        request.log.error({ err: error }, 'storage full: the request was refused');
        return sendFailure(reply, 507, SERVER_MESSAGES.storageFull, ERROR_CODES.storageFull);
      }
      if (storage === 'io') {
        request.log.error({ err: error }, 'storage I/O error: the request was refused');
        return sendFailure(reply, 503, SERVER_MESSAGES.storageFailed, ERROR_CODES.storageFailed);
      }
      if (isTransientConflict(error) || isDatabaseBusy(error)) {
        // Nothing was saved and the same request will very likely succeed when sent again.
        request.log.warn(
          { err: error },
          'write aborted by concurrent writes: the request was refused',
        );
        reply.header('retry-after', '1');
        return sendFailure(reply, 503, SERVER_MESSAGES.writeConflict, ERROR_CODES.writeConflict);
      }
      request.log.error({ err: error }, 'unhandled error');
      return sendFailure(reply, 500, SERVER_MESSAGES.internal, ERROR_CODES.internal);
    },
  );
}

/**
 * Fastify's `frameworkErrors`: a URL whose percent-encoding does not decode (`/v1/admin/%ZZ`)
 * gets the failure body, not the framework's own, which echoed the URL.
 */
export function frameworkErrors(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  request.log.debug({ code: error.code }, 'request refused before routing');
  void sendFailure(reply, 400, SERVER_MESSAGES.invalidUrl, ERROR_CODES.invalidQueryParam);
}

/**
 * Fastify's `clientErrorHandler`: a request Node's HTTP parser cannot read (a malformed header or
 * chunk, an unknown HTTP version, headers over the size limit, a request that timed out) is
 * answered with the failure body and the connection closed, as every other refusal is answered.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, reason, description] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', SERVER_MESSAGES.headersTooLarge]
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', SERVER_MESSAGES.badHttpRequest]
        : [400, 'Bad Request', SERVER_MESSAGES.badHttpRequest];
  const body: FailureBody = {
    status: 'failure',
    description,
    error_code: ERROR_CODES.invalidRequestBody,
  };
  const text = JSON.stringify(body);
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
  );
}

/**
 * Refuses a request body sent with a `Content-Encoding` (gzip, br…): the server reads bodies as
 * sent, so a compressed one failed as "Invalid JSON" and one merely labelled compressed was taken
 * as it was. 415 says what to do instead.
 */
export function registerContentEncodingGuard(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    const encoding = request.headers['content-encoding']?.trim().toLowerCase();
    const hasBody =
      request.headers['transfer-encoding'] !== undefined ||
      Number(request.headers['content-length'] ?? 0) > 0;
    if (encoding && encoding !== 'identity' && hasBody) {
      reply.header('accept-encoding', 'identity');
      void sendFailure(
        reply,
        415,
        SERVER_MESSAGES.contentEncodingUnsupported,
        ERROR_CODES.invalidRequestBody,
      );
      return;
    }
    done();
  });
}

/** zod's own English texts, to tell its generic messages from the schemas' (spec) ones. */
const zodEnglish = z.locales.en();

/** The trailing `, received <type>` of zod's type messages, which depends on the input. */
const RECEIVED = /, received \w+$/;

/**
 * What a refused field is told. A schema's own message (the spec's text) is shown as written;
 * zod's generic ones ("Invalid input: expected string, received undefined") name no field, so
 * they are given the field's name: `group_id is missing`, `group_id may be given only once` (a
 * query parameter repeated), `nodes: Invalid input: expected array, received object`.
 */
export function validationDescription(
  issue: FastifySchemaValidationError,
  inQuery: boolean,
): string {
  const message = issue.message?.trim() ?? '';
  const field = fieldName(issue.instancePath);
  if (!message || !field || !isZodDefault(issue, message)) return message;
  if (issue.keyword === 'invalid_type') {
    if (message.endsWith('received undefined')) return `${field} is missing`;
    if (inQuery && message.endsWith('received array')) return `${field} may be given only once`;
  }
  return `${field}: ${message}`;
}

/** `nodes[0].name` of the issue path `/nodes/0/name`; empty for the whole body or query. */
function fieldName(instancePath: string): string {
  return instancePath
    .split('/')
    .filter(Boolean)
    .map((part, index) => (/^\d+$/.test(part) ? `[${part}]` : index === 0 ? part : `.${part}`))
    .join('');
}

/** Whether `message` is zod's generic text for the issue (not one the schema chose). */
function isZodDefault(issue: FastifySchemaValidationError, message: string): boolean {
  const raw = { code: issue.keyword, path: [], ...issue.params } as unknown as Parameters<
    typeof zodEnglish.localeError
  >[0];
  const fallback = zodEnglish.localeError(raw);
  const generic = typeof fallback === 'string' ? fallback : fallback?.message;
  if (!generic) return false;
  return message.replace(RECEIVED, '') === generic.replace(RECEIVED, '');
}
