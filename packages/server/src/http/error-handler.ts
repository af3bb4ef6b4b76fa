import { ERROR_CODES, SERVER_MESSAGES, type FailureBody } from '@fleetdeck/contract';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
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
 * storage I/O error a 503 (QUALITY R2), and anything else is logged and becomes a plain 500
 * without internals.
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
          first?.message?.trim() ||
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
      request.log.error({ err: error }, 'unhandled error');
      return sendFailure(reply, 500, SERVER_MESSAGES.internal, ERROR_CODES.internal);
    },
  );
}
