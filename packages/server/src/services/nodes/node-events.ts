import { EventEmitter } from 'node:events';
import type { NodeConnectivityEvent } from '@fleetdeck/contract';

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
}
