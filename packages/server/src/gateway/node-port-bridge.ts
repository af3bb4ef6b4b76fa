import type {
  AlertPayload,
  NodeConfigPayload,
  OtaFetchPayload,
  OtaStatusPayload,
  ParamsPayload,
  UserMappingPayload,
} from '@fleetdeck/contract';
import type { DiagnosticsReport } from '../services/diagnostics/diagnostics.apply.js';
import type { NodeGatewayPort } from '../services/nodes/node-gateway.port.js';
import type { ThreadChannel } from './thread-channel.js';

/**
 * The node port as the broker thread sees it (ADR 23): every call crosses to the main thread,
 * where `callNodePort` hands it to the real port. Notifications are batched by the channel and
 * keep their order; `whenDurable` rides at the end of the batch that holds the messages it covers.
 */
export class NodePortBridge implements NodeGatewayPort {
  constructor(private readonly channel: ThreadChannel) {}

  authenticateNode(nodeId: string, password: string): Promise<boolean> {
    return this.channel.request('authenticateNode', nodeId, password) as Promise<boolean>;
  }

  nodeConnected(nodeId: string, session: number, at: number): void {
    this.channel.notify('nodeConnected', nodeId, session, at);
  }

  nodeDisconnected(nodeId: string, session: number, at: number): void {
    this.channel.notify('nodeDisconnected', nodeId, session, at);
  }

  sweepUnconfirmed(): Promise<number> {
    return Promise.reject(new Error('sweepUnconfirmed is for external brokers only'));
  }

  nodeConfig(nodeId: string, config: NodeConfigPayload, at: number): void {
    this.channel.notify('nodeConfig', nodeId, config, at);
  }

  nodeParams(nodeId: string, params: ParamsPayload, init: boolean, at: number): void {
    this.channel.notify('nodeParams', nodeId, params, init, at);
  }

  nodeAlert(nodeId: string, alert: AlertPayload, at: number): void {
    this.channel.notify('nodeAlert', nodeId, alert, at);
  }

  nodeUserMapping(nodeId: string, mapping: UserMappingPayload, at: number): void {
    this.channel.notify('nodeUserMapping', nodeId, mapping, at);
  }

  nodeOtaFetch(nodeId: string, fetch: OtaFetchPayload, at: number): void {
    this.channel.notify('nodeOtaFetch', nodeId, fetch, at);
  }

  nodeOtaStatus(nodeId: string, status: OtaStatusPayload, at: number): void {
    this.channel.notify('nodeOtaStatus', nodeId, status, at);
  }

  nodeDiagnostics(nodeId: string, report: DiagnosticsReport, at: number): void {
    this.channel.notify('nodeDiagnostics', nodeId, report, at);
  }

  nodeDiagnosticsRejected(nodeId: string, reason: string, at: number): void {
    this.channel.notify('nodeDiagnosticsRejected', nodeId, reason, at);
  }

  whenDurable(): Promise<void> {
    return this.channel.requestAtEndOfBatch('whenDurable') as Promise<void>;
  }

  /** A request of its own (one end-of-batch request at a time is `whenDurable`'s), still after
   * the calls made before it: `otafetch` is rare. */
  whenAnswered(): Promise<void> {
    return this.channel.request('whenAnswered') as Promise<void>;
  }

  flush(): Promise<void> {
    return this.channel.request('flush') as Promise<void>;
  }
}

/** A node message as the broker thread forwards it: node id, suffix, latin1 payload, time. */
export const NODE_MESSAGE = 'nodeMessage';

/** The port's methods a broker thread may call (the main thread's side of `NodePortBridge`). */
const BRIDGED_METHODS: ReadonlySet<string> = new Set<keyof NodeGatewayPort>([
  'authenticateNode',
  'nodeConnected',
  'nodeDisconnected',
  'nodeConfig',
  'nodeParams',
  'nodeAlert',
  'nodeUserMapping',
  'nodeOtaFetch',
  'nodeOtaStatus',
  'nodeDiagnostics',
  'nodeDiagnosticsRejected',
  'whenDurable',
  'whenAnswered',
  'flush',
]);

/** Runs a call that `NodePortBridge` sent on the real port; throws on any other method name. */
export function callNodePort(port: NodeGatewayPort, method: string, args: unknown[]): unknown {
  if (!BRIDGED_METHODS.has(method)) throw new Error(`not a node port call: ${method}`);
  // Called as a member, so the port's methods keep their `this`.
  const methods = port as unknown as Record<string, (...values: unknown[]) => unknown>;
  return methods[method]?.(...args);
}
