import { OtaUrlPayloadSchema, type OtaUrlPayload } from '@fleetdeck/contract';
import type { NodeGateway, NodeOutboundPayload } from '../../src/gateway/node-gateway.js';

/** Captures the OTA offers a rollout engine publishes, as the broker would receive them. */
export class CapturingGateway implements NodeGateway {
  readonly offers: Array<{ nodeId: string; payload: OtaUrlPayload }> = [];
  publishToNode(nodeId: string, suffix: string, payload: NodeOutboundPayload): Promise<void> {
    if (suffix === 'otaurl')
      this.offers.push({ nodeId, payload: OtaUrlPayloadSchema.parse(payload) });
    return Promise.resolve();
  }
  close(): Promise<void> {
    return Promise.resolve();
  }
  /** The nodes offered `jobId`, sorted (a node twice when offered twice). */
  offersOf(jobId: string): string[] {
    return this.offers
      .filter((o) => o.payload.ota_job_id === jobId)
      .map((o) => o.nodeId)
      .sort();
  }
}
