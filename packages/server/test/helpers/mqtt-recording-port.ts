import { EventEmitter } from 'node:events';
import type {
  AlertPayload,
  NodeConfigPayload,
  OtaFetchPayload,
  OtaStatusPayload,
  ParamsPayload,
  UserMappingPayload,
} from '@fleetdeck/contract';
import type { DiagnosticsReport } from '../../src/services/diagnostics/diagnostics.apply.js';
import type { NodeGatewayPort } from '../../src/services/nodes/node-gateway.port.js';

/** One call the gateway made on the port. */
export type PortCall =
  | { kind: 'connected'; nodeId: string; session: number; at: number }
  | { kind: 'disconnected'; nodeId: string; session: number; at: number }
  | { kind: 'config'; nodeId: string; config: NodeConfigPayload; at: number }
  | { kind: 'params'; nodeId: string; params: ParamsPayload; init: boolean; at: number }
  | { kind: 'alert'; nodeId: string; alert: AlertPayload; at: number }
  | { kind: 'mapping'; nodeId: string; mapping: UserMappingPayload; at: number }
  | { kind: 'otafetch'; nodeId: string; fetch: OtaFetchPayload; at: number }
  | { kind: 'otastatus'; nodeId: string; status: OtaStatusPayload; at: number }
  | { kind: 'diagnostics'; nodeId: string; report: DiagnosticsReport; at: number }
  | { kind: 'diagnosticsRejected'; nodeId: string; reason: string; at: number }
  /** The external gateway's sweep after a subscription; `nodeId` is always ''. */
  | { kind: 'swept'; nodeId: ''; confirmed: string[]; count: number; at: number };

type CallOf<K extends PortCall['kind']> = Extract<PortCall, { kind: K }>;

/**
 * An in-memory NodeGatewayPort that records every call, knows a few node credentials, and keeps
 * connectivity the way the port promises to (a change of an older session never overrides a
 * newer one), so gateway tests can assert on the final state as well as on the calls.
 */
export class RecordingNodePort implements NodeGatewayPort {
  readonly calls: PortCall[] = [];
  private readonly credentials = new Map<string, string>();
  private readonly connectivity = new Map<string, { connected: boolean; session: number }>();
  private readonly events = new EventEmitter();

  /** Registers a node credential. */
  addNode(nodeId: string, password: string): this {
    this.credentials.set(nodeId, password);
    return this;
  }

  async authenticateNode(nodeId: string, password: string): Promise<boolean> {
    return this.credentials.get(nodeId) === password;
  }

  nodeConnected(nodeId: string, session: number, at: number): void {
    this.applyConnectivity(nodeId, true, session);
    this.record({ kind: 'connected', nodeId, session, at });
  }

  nodeDisconnected(nodeId: string, session: number, at: number): void {
    this.applyConnectivity(nodeId, false, session);
    this.record({ kind: 'disconnected', nodeId, session, at });
  }

  async sweepUnconfirmed(confirmed: ReadonlySet<string>, at: number): Promise<number> {
    let swept = 0;
    for (const [nodeId, state] of this.connectivity) {
      if (!state.connected || confirmed.has(nodeId)) continue;
      this.nodeDisconnected(nodeId, state.session, at);
      swept += 1;
    }
    this.record({ kind: 'swept', nodeId: '', confirmed: [...confirmed], count: swept, at });
    return swept;
  }

  nodeConfig(nodeId: string, config: NodeConfigPayload, at: number): void {
    this.record({ kind: 'config', nodeId, config, at });
  }

  nodeParams(nodeId: string, params: ParamsPayload, init: boolean, at: number): void {
    this.record({ kind: 'params', nodeId, params, init, at });
  }

  nodeAlert(nodeId: string, alert: AlertPayload, at: number): void {
    this.record({ kind: 'alert', nodeId, alert, at });
  }

  nodeUserMapping(nodeId: string, mapping: UserMappingPayload, at: number): void {
    this.record({ kind: 'mapping', nodeId, mapping, at });
  }

  nodeOtaFetch(nodeId: string, fetch: OtaFetchPayload, at: number): void {
    this.record({ kind: 'otafetch', nodeId, fetch, at });
  }

  nodeOtaStatus(nodeId: string, status: OtaStatusPayload, at: number): void {
    this.record({ kind: 'otastatus', nodeId, status, at });
  }

  nodeDiagnostics(nodeId: string, report: DiagnosticsReport, at: number): void {
    this.record({ kind: 'diagnostics', nodeId, report, at });
  }

  nodeDiagnosticsRejected(nodeId: string, reason: string, at: number): void {
    this.record({ kind: 'diagnosticsRejected', nodeId, reason, at });
  }

  private commitGate: Promise<void> | undefined;
  private openCommitGate: (() => void) | undefined;

  /** From now until `commit()`, `whenDurable` waits, as if the batch had not committed yet. */
  holdCommits(): void {
    this.commitGate ??= new Promise((resolve) => {
      this.openCommitGate = resolve;
    });
  }

  /** Lets every `whenDurable` waiting since `holdCommits` resolve. */
  commit(): void {
    this.openCommitGate?.();
    this.commitGate = undefined;
    this.openCommitGate = undefined;
  }

  async whenDurable(): Promise<void> {
    await this.commitGate;
  }

  async whenAnswered(): Promise<void> {}

  async flush(): Promise<void> {}

  /** The node's connectivity as the port would store it, or undefined if never seen. */
  isConnected(nodeId: string): boolean | undefined {
    return this.connectivity.get(nodeId)?.connected;
  }

  /** The calls of one kind for one node, in order. */
  callsOf<K extends PortCall['kind']>(kind: K, nodeId: string): CallOf<K>[] {
    return this.calls.filter(
      (call): call is CallOf<K> => call.kind === kind && call.nodeId === nodeId,
    );
  }

  /** Resolves with the first call (already made or coming) that matches, or rejects on timeout. */
  waitFor<K extends PortCall['kind']>(
    kind: K,
    nodeId: string,
    match: (call: CallOf<K>) => boolean = () => true,
    timeoutMs = 5000,
  ): Promise<CallOf<K>> {
    const found = this.callsOf(kind, nodeId).find(match);
    if (found) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const listener = (call: PortCall) => {
        if (call.kind !== kind || call.nodeId !== nodeId) return;
        // The kind was checked just above; the compiler cannot narrow a generic union by it.
        const typed = call as CallOf<K>;
        if (!match(typed)) return;
        clearTimeout(timer);
        this.events.off('call', listener);
        resolve(typed);
      };
      const timer = setTimeout(() => {
        this.events.off('call', listener);
        reject(new Error(`no ${kind} call for ${nodeId} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.events.on('call', listener);
    });
  }

  private applyConnectivity(nodeId: string, connected: boolean, session: number): void {
    const current = this.connectivity.get(nodeId);
    if (!current || session >= current.session)
      this.connectivity.set(nodeId, { connected, session });
  }

  private record(call: PortCall): void {
    this.calls.push(call);
    this.events.emit('call', call);
  }
}
