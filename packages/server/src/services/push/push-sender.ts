import type { PlatformCredentials } from './push-credentials.js';
import type { PushMessage } from './push-message.js';

/**
 * How one delivery went: `sent`; `invalid_token` (the device is gone: drop its endpoint);
 * `retry` (throttled, a server error or the network: try again later); `failed` (credentials or
 * request refused: retrying will not help).
 */
export type SendOutcome =
  | { result: 'sent' }
  | { result: 'invalid_token'; reason: string }
  | { result: 'retry'; reason: string }
  | { result: 'failed'; reason: string };

/** Where one notification goes. */
export interface PushDelivery {
  platformArn: string;
  platform: 'GCM' | 'APNS' | 'APNS_SANDBOX';
  credentials: PlatformCredentials;
  deviceToken: string;
  message: PushMessage;
}

/** Sends one notification to one device. */
export interface PushSender {
  send(delivery: PushDelivery): Promise<SendOutcome>;
  /** Closes pooled connections. */
  close(): Promise<void>;
}
