import { EventEmitter } from 'node:events';
import type { NodeConnectivityEvent, OtaJobEvent } from '@fleetdeck/contract';

/**
 * What happened to a node or a group that its end users may be told about (push notifications,
 * docs/adr/0014). Kinds are the push event names. Emitted after commit, like the others.
 */
export type FleetActivity =
  | { kind: 'node_params_changed' | 'node_config_changed'; node_id: string }
  | { kind: 'node_alert'; node_id: string; message: string | undefined }
  | { kind: 'user_node_added' | 'user_node_removed'; node_id: string; user_id: string }
  | {
      kind: 'group_added' | 'group_removed';
      group_id: string;
      group_name: string;
      user_ids: string[];
    }
  /** A user accepted a node sharing request and is now a secondary user of the node. */
  | { kind: 'node_shared_with_user'; node_id: string; user_id: string }
  /** A user accepted a device group's notifications. */
  | { kind: 'group_shared_with_user'; group_id: string; group_name: string; user_id: string }
  /** An automation of `user_id` fired on a params change of `node_id`. */
  | {
      kind: 'node_automation_trigger';
      node_id: string;
      user_id: string;
      automation_id: string;
      automation_name: string;
    };

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

  /** Publishes node or group activity (params, alerts, config, user mapping, groups). */
  emitActivity(event: FleetActivity): void {
    this.emitter.emit('activity', event);
  }

  /** Subscribes to node and group activity; returns the unsubscribe function. */
  onActivity(listener: (event: FleetActivity) => void): () => void {
    this.emitter.on('activity', listener);
    return () => this.emitter.off('activity', listener);
  }
}
