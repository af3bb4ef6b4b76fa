import { NODE_TOPIC_PREFIX, NodeIdSchema, nodeTopic, parseNodeTopic } from '@fleetdeck/contract';

/**
 * The node ACL of ARCHITECTURE §5 as pure functions, shared by the embedded broker and the tests:
 * a node may use only its own `node/<id>/…` topics (and, for publishes, the basic-ingest
 * `$aws/rules/<rule>/node/<id>/<suffix>` spelling of them).
 */

/** Largest payload a node may publish (and the gateway will parse): 64 KiB. */
export const NODE_PAYLOAD_LIMIT = 64 * 1024;

/**
 * Largest MQTT packet (remaining length) a node may send: the payload limit plus room for the
 * topic, packet id and properties. Checked on the wire before a packet is buffered.
 */
export const NODE_PACKET_LIMIT = NODE_PAYLOAD_LIMIT + 4 * 1024;

/** Whether `value` is a well-formed node id (so it can be used as one MQTT topic level). */
export function isNodeId(value: string): boolean {
  const parsed = NodeIdSchema.safeParse(value);
  return parsed.success && parsed.data === value;
}

/**
 * The normalised `node/<id>/<suffix>` topic node `nodeId` may publish `topic` as, or undefined
 * when the topic belongs to another node, names a mismatched basic-ingest rule, or is no node
 * topic at all.
 */
export function nodePublishTopic(nodeId: string, topic: string): string | undefined {
  const parsed = parseNodeTopic(topic);
  if (!parsed || parsed.nodeId !== nodeId) return undefined;
  return nodeTopic(nodeId, parsed.suffix);
}

/**
 * Whether node `nodeId` may subscribe to `filter`: only filters strictly under its own
 * `node/<id>/` (wildcards below that level are fine; `#`, `+` at the node level, `$SYS`,
 * shared subscriptions and other nodes are not).
 */
export function isNodeSubscriptionAllowed(nodeId: string, filter: string): boolean {
  if (!isNodeId(nodeId)) return false;
  const prefix = `${NODE_TOPIC_PREFIX}/${nodeId}/`;
  return filter.startsWith(prefix) && filter.length > prefix.length;
}
