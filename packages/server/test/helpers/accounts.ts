import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { codeIn, type SmtpCapture } from './smtp-capture.js';

/** An admin's invitation of a service engineer (`POST /v1/admin/user2`), valid in every field. */
export const INVITED_ENGINEER = {
  first_name: 'Asha',
  last_name: 'Rao',
  city: 'Pune',
  phone_number: '9876543210',
  user_name: 'asha.rao@fleetdeck.test',
  roles: ['service_engineer_role'],
  geo_region: 'Pune',
  registration_date: '2025-03-14',
};

let counter = 0;

/** A fresh address per call, so tests do not share accounts (or their rate limits). */
export function uniqueEmail(prefix = 'user'): string {
  counter += 1;
  return `${prefix}.${Date.now().toString(36)}.${counter}@example.org`;
}

/** POST /v1/user with a JSON body. */
export function postUser(
  app: FastifyInstance,
  payload: object,
  path = '/v1/user',
): Promise<LightMyRequestResponse> {
  return app.inject({ method: 'POST', url: path, payload });
}

/** PUT /v1/forgotpassword with a JSON body. */
export function putForgot(
  app: FastifyInstance,
  payload: object,
  path = '/v1/forgotpassword',
): Promise<LightMyRequestResponse> {
  return app.inject({ method: 'PUT', url: path, payload });
}

/** POST /v1/login with a JSON body (API client). */
export function postLogin(app: FastifyInstance, payload: object, path = '/v1/login') {
  return app.inject({ method: 'POST', url: path, payload });
}

/** The code of the newest mail to `to` whose subject matches, waiting for it to arrive. */
export async function mailedCode(
  smtp: SmtpCapture,
  to: string,
  subject: RegExp,
  after = 0,
): Promise<string> {
  const mail = await smtp.waitForMail(
    to,
    (m) => subject.test(m.subject) && smtp.mails.indexOf(m) >= after,
  );
  return codeIn(mail.text);
}

/** Signs up and verifies an account through the API, reading the code from the mail. */
export async function signUpVerified(
  app: FastifyInstance,
  smtp: SmtpCapture,
  email: string,
  password: string,
): Promise<void> {
  const before = smtp.mails.length;
  const created = await postUser(app, { user_name: email, password });
  expect(created.statusCode, created.body).toBe(201);
  const code = await mailedCode(smtp, email, /verification code/i, before);
  const verified = await postUser(app, { user_name: email, verification_code: code });
  expect(verified.statusCode, verified.body).toBe(201);
}
