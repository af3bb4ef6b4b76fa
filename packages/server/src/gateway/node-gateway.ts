import { nodeTopic } from '@fleetdeck/contract';
import { isNodeId } from './node-acl.js';

/** A cloud → node payload: raw bytes or text as they are, anything else as JSON. */
export type NodeOutboundPayload = Buffer | string | Readonly<Record<string, unknown>>;

/** What the rest of the server holds of the device gateway, embedded or external. */
export interface NodeGateway {
  /** Publishes `payload` on `node/<nodeId>/<suffix>` with QoS 1 (e.g. `params/remote`, `otaurl`). */
  publishToNode(nodeId: string, suffix: string, payload: NodeOutboundPayload): Promise<void>;
  /** Disconnects from (or closes) the broker; resolves once nothing more reaches the port. */
  close(): Promise<void>;
}

/** The topic and bytes of a cloud → node message; throws on a malformed node id or suffix. */
export function outboundMessage(
  nodeId: string,
  suffix: string,
  payload: NodeOutboundPayload,
): { topic: string; payload: Buffer } {
  if (!isNodeId(nodeId)) throw new Error(`not a node id: ${JSON.stringify(nodeId)}`);
  if (!suffix || /[+#]/.test(suffix) || suffix.startsWith('/')) {
    throw new Error(`not a node topic suffix: ${JSON.stringify(suffix)}`);
  }
  const bytes = Buffer.isBuffer(payload)
    ? payload
    : Buffer.from(typeof payload === 'string' ? payload : JSON.stringify(payload), 'utf8');
  return { topic: nodeTopic(nodeId, suffix), payload: bytes };
}
