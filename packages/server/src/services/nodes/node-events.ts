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

/** The events other instances hear about (the dashboards' live updates). */
export type RelayedEvent =
  { kind: 'connectivity'; event: NodeConnectivityEvent } | { kind: 'ota-job'; event: OtaJobEvent };

/**
 * Who hears an event: `local` listeners act on it (push, automations, OTA offers) and hear only
 * what this instance committed, so each happens once; `fleet` listeners (SSE dashboards) also hear
 * what other instances committed, through the relay (ADR 38).
 */
export type EventScope = 'local' | 'fleet';

/**
 * Fan-out of node events after commit. In process; with REDIS_URL a relay also sends connectivity
 * and job events to the other instances and hands theirs to this one's `fleet` listeners.
 */
export class NodeEvents {
  private readonly emitter = new EventEmitter();
  private relay: ((event: RelayedEvent) => void) | undefined;

  constructor() {
    // Every open dashboard holds one listener.
    this.emitter.setMaxListeners(0);
  }

  /** Sends this instance's connectivity and job events on to the other instances as well. */
  setRelay(relay: ((event: RelayedEvent) => void) | undefined): void {
    this.relay = relay;
  }

  /** An event another instance committed: only `fleet` listeners hear it. */
  deliverRemote(relayed: RelayedEvent): void {
    this.emitter.emit(`${relayed.kind}:remote`, relayed.event);
  }

  /** Publishes a connectivity change. */
  emitConnectivity(event: NodeConnectivityEvent): void {
    this.emitter.emit('connectivity', event);
    this.relay?.({ kind: 'connectivity', event });
  }

  /** Subscribes to connectivity changes; returns the unsubscribe function. */
  onConnectivity(
    listener: (event: NodeConnectivityEvent) => void,
    scope: EventScope = 'local',
  ): () => void {
    return this.listen('connectivity', listener, scope);
  }

  /** Publishes that a job or its executions changed (at most once per ingest batch and job). */
  emitOtaJob(event: OtaJobEvent): void {
    this.emitter.emit('ota-job', event);
    this.relay?.({ kind: 'ota-job', event });
  }

  /** Subscribes to job changes; returns the unsubscribe function. */
  onOtaJob(listener: (event: OtaJobEvent) => void, scope: EventScope = 'local'): () => void {
    return this.listen('ota-job', listener, scope);
  }

  /** Publishes node or group activity (params, alerts, config, user mapping, groups). */
  emitActivity(event: FleetActivity): void {
    this.emitter.emit('activity', event);
  }

  /**
   * Subscribes to node and group activity; returns the unsubscribe function. Activity is never
   * relayed: its listeners act on it (push, automations), once, where it was committed.
   */
  onActivity(listener: (event: FleetActivity) => void): () => void {
    this.emitter.on('activity', listener);
    return () => this.emitter.off('activity', listener);
  }

  private listen<T>(
    kind: RelayedEvent['kind'],
    listener: (event: T) => void,
    scope: EventScope,
  ): () => void {
    this.emitter.on(kind, listener);
    if (scope === 'fleet') this.emitter.on(`${kind}:remote`, listener);
    return () => {
      this.emitter.off(kind, listener);
      this.emitter.off(`${kind}:remote`, listener);
    };
  }
}
