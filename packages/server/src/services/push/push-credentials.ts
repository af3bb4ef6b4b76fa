import { createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';
import {
  PUSH_ERROR_CODES,
  PUSH_MESSAGES,
  type MobilePlatformCreateBody,
} from '@fleetdeck/contract';
import { z } from 'zod';
import { badRequest } from '../../errors.js';

/** What an FCM HTTP v1 sender needs from the service-account JSON. */
export interface FcmCredentials {
  kind: 'fcm';
  project_id: string;
  client_email: string;
  private_key: string;
}

/** What an APNs sender needs: the client certificate, its key and the topic (bundle id). */
export interface ApnsCredentials {
  kind: 'apns';
  certificate: string;
  private_key: string;
  topic: string | undefined;
}

export type PlatformCredentials = FcmCredentials | ApnsCredentials;

/** Non-secret facts shown in the platform list (RainMaker's Attributes). */
export interface PlatformAttributes {
  AuthenticationMethod: string;
  AppleCertificateExpirationDate?: string;
  ProjectId?: string;
}

const ServiceAccountSchema = z.object({
  project_id: z.string().min(1),
  client_email: z.string().min(3),
  private_key: z.string().min(1),
});

function invalid(message: string) {
  return badRequest(message, PUSH_ERROR_CODES.credentialsInvalid);
}

function privateKeyOf(pem: string, message: string): KeyObject {
  try {
    return createPrivateKey(pem);
  } catch {
    throw invalid(message);
  }
}

/** The bundle id in an Apple push certificate's subject (UID=…), if any. */
export function apnsTopicOf(certificate: X509Certificate): string | undefined {
  const line = certificate.subject.split('\n').find((part) => part.startsWith('UID='));
  return line?.slice('UID='.length) || undefined;
}

/**
 * Checks a platform's credentials before they are stored: the FCM service account must be JSON
 * with a usable private key; an APNs certificate must parse, be valid now and match its key.
 */
export function verifyPlatformCredentials(
  body: MobilePlatformCreateBody,
  now: number = Date.now(),
): { credentials: PlatformCredentials; attributes: PlatformAttributes } {
  if (body.platform === 'GCM') {
    let json: unknown;
    try {
      json = JSON.parse(body.api_key);
    } catch {
      throw invalid(PUSH_MESSAGES.fcmKeyInvalid);
    }
    const account = ServiceAccountSchema.safeParse(json);
    if (!account.success) throw invalid(PUSH_MESSAGES.fcmKeyInvalid);
    privateKeyOf(account.data.private_key, PUSH_MESSAGES.fcmKeyInvalid);
    return {
      credentials: { kind: 'fcm', ...account.data },
      attributes: { AuthenticationMethod: 'service_account', ProjectId: account.data.project_id },
    };
  }
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(body.ssl_certificate);
  } catch {
    throw invalid(PUSH_MESSAGES.apnsCertificateInvalid);
  }
  const key = privateKeyOf(body.private_key, PUSH_MESSAGES.apnsKeyInvalid);
  if (!certificate.checkPrivateKey(key)) throw invalid(PUSH_MESSAGES.apnsKeyMismatch);
  const expires = new Date(certificate.validTo);
  if (expires.getTime() < now) throw invalid(PUSH_MESSAGES.apnsCertificateExpired);
  return {
    credentials: {
      kind: 'apns',
      certificate: body.ssl_certificate,
      private_key: body.private_key,
      topic: body.bundle_id ?? apnsTopicOf(certificate),
    },
    attributes: {
      AuthenticationMethod: 'certificate',
      AppleCertificateExpirationDate: expires.toISOString(),
    },
  };
}
