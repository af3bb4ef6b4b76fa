import type {
  AlertPayload,
  NodeConfigPayload,
  OtaFetchPayload,
  OtaStatusPayload,
  ParamsPayload,
  UserMappingPayload,
} from '@fleetdeck/contract';
import type { DiagnosticsReport } from '../diagnostics/diagnostics.apply.js';

/**
 * What the device gateway (embedded broker or external-broker client) asks of the node services.
 * The gateway owns MQTT: authentication, ACL, topic normalisation, QoS 1 acknowledgements and
 * connection bookkeeping. The services own state: they validate nothing MQTT-specific and must
 * return quickly — writes are batched and coalesced behind these calls, so the gateway never waits
 * for a database round trip before it acknowledges a publish.
 */
export interface NodeGatewayPort {
  /** Whether `password` is the node's MQTT credential (constant-time; false for unknown nodes). */
  authenticateNode(nodeId: string, password: string): Promise<boolean>;

  /**
   * The node connected. `session` increases with every connection of that node as the gateway
   * saw it (or came from the node's birth message), so a late disconnect of an older connection
   * can be recognised and ignored. `at` is epoch milliseconds.
   */
  nodeConnected(nodeId: string, session: number, at: number): void;

  /** The connection `session` of the node ended; ignored if a newer session is known. */
  nodeDisconnected(nodeId: string, session: number, at: number): void;

  /**
   * External brokers only. The gateway subscribed anew (start or reconnect) and the broker has
   * delivered its retained `connection` messages: a node stored as online that is not among
   * `confirmed` (the nodes heard on `node/<id>/connection` since that subscription) has no birth
   * left on the broker, so it is not connected (the broker restarted without its retained
   * messages, or the state was cleared). Such nodes go offline within their stored session, so
   * any later birth brings them back. Resolves with how many were marked offline.
   */
  sweepUnconfirmed(confirmed: ReadonlySet<string>, at: number): Promise<number>;

  /** `config` arrived (already parsed with NodeConfigPayloadSchema). */
  nodeConfig(nodeId: string, config: NodeConfigPayload, at: number): void;

  /** `params/local` (changed params, merged) or `params/local/init` (full document). */
  nodeParams(nodeId: string, params: ParamsPayload, init: boolean, at: number): void;

  /** `alert` arrived. */
  nodeAlert(nodeId: string, alert: AlertPayload, at: number): void;

  /** `user/mapping` arrived: the node confirms (or resets) a user association. */
  nodeUserMapping(nodeId: string, mapping: UserMappingPayload, at: number): void;

  /** `otafetch` arrived: the node asks whether an update waits for it. */
  nodeOtaFetch(nodeId: string, fetch: OtaFetchPayload, at: number): void;

  /** `otastatus` arrived: progress or the verdict of an update (batched like the rest). */
  nodeOtaStatus(nodeId: string, status: OtaStatusPayload, at: number): void;

  /** `diagnostics/from-node` arrived, decoded from JSON or an ESP Insights frame (batched). */
  nodeDiagnostics(nodeId: string, report: DiagnosticsReport, at: number): void;

  /** A `diagnostics/from-node` payload could not be decoded: counted and dropped. */
  nodeDiagnosticsRejected(nodeId: string, reason: string, at: number): void;

  /**
   * Resolves once everything accepted so far is committed, riding on the next scheduled batch
   * (group commit) instead of forcing one. The embedded gateway holds a QoS 1 PUBACK until then,
   * so an acknowledged message is never lost to a crash.
   */
  whenDurable(): Promise<void>;

  /**
   * Resolves once every `otafetch` accepted so far is answered (the offer, if any, published).
   * A gateway holds an `otafetch`'s acknowledgement for this as well as for `whenDurable`, so a
   * crash never leaves an acknowledged question unanswered (a node still connected to an external
   * broker would not ask again).
   */
  whenAnswered(): Promise<void>;

  /** Writes everything accepted so far now; resolves once committed (shutdown and tests). */
  flush(): Promise<void>;
}
