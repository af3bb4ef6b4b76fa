import { EventEmitter } from 'node:events';
import type { NodeConnectivityEvent, OtaJobEvent } from '@fleetdeck/contract';

/**
 * In-process fan-out of node events to dashboards (SSE). Emitted only after the change is
 * committed. With several instances a shared bus (Redis or LISTEN/NOTIFY) takes its place.
 */
export class NodeEvents {
  private readonly emitter = new EventEmitter();

  constructor() {
    // Every open dashboard holds one listener.
    this.emitter.setMaxListeners(0);
  }

  /** Publishes a connectivity change. */
  emitConnectivity(event: NodeConnectivityEvent): void {
    this.emitter.emit('connectivity', event);
  }

  /** Subscribes to connectivity changes; returns the unsubscribe function. */
  onConnectivity(listener: (event: NodeConnectivityEvent) => void): () => void {
    this.emitter.on('connectivity', listener);
    return () => this.emitter.off('connectivity', listener);
  }

  /** Publishes that a job or its executions changed (at most once per ingest batch and job). */
  emitOtaJob(event: OtaJobEvent): void {
    this.emitter.emit('ota-job', event);
  }

  /** Subscribes to job changes; returns the unsubscribe function. */
  onOtaJob(listener: (event: OtaJobEvent) => void): () => void {
    this.emitter.on('ota-job', listener);
    return () => this.emitter.off('ota-job', listener);
  }
}
