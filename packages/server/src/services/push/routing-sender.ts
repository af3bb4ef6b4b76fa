import { ApnsSender, type ApnsSenderOptions } from './apns-sender.js';
import { FcmSender, type FcmSenderOptions } from './fcm-sender.js';
import type { PushDelivery, PushSender, SendOutcome } from './push-sender.js';

/** Sends GCM deliveries through FCM HTTP v1 and APNS/APNS_SANDBOX ones through APNs. */
export class RoutingSender implements PushSender {
  private readonly fcm: FcmSender;
  private readonly apns: ApnsSender;

  constructor(options: { fcm: FcmSenderOptions; apns: ApnsSenderOptions }) {
    this.fcm = new FcmSender(options.fcm);
    this.apns = new ApnsSender(options.apns);
  }

  send(delivery: PushDelivery): Promise<SendOutcome> {
    return delivery.platform === 'GCM' ? this.fcm.send(delivery) : this.apns.send(delivery);
  }

  async close(): Promise<void> {
    await Promise.all([this.fcm.close(), this.apns.close()]);
  }
}
