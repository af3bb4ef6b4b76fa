import {
  basicIngestTopic,
  nodeTopic,
  type ConnectionPayload,
  type IngestSuffix,
  type NodeConfigPayload,
  type UserMappingPayload,
} from '@fleetdeck/contract';
import {
  deviceDefinitions,
  type ApplianceProfile,
  type DeviceDefinition,
} from './appliance-profiles.js';
import type { NodeSpec } from './node-spec.js';

/** B.4.1 `config_version` of every config the simulator sends. */
export const CONFIG_VERSION = '2020-03-20';

/** Topics a node subscribes to right after it has reported its state. */
export const NODE_SUBSCRIPTIONS = ['params/remote', 'otaurl'] as const;

/**
 * The topic a node publishes `suffix` on. Stock firmware uses the basic-ingest spelling
 * (`$aws/rules/<rule>/node/<id>/<suffix>`) where one exists; `connection` (birth and will) never
 * has one, so it is always the plain `node/<id>/connection`.
 */
export function publishTopic(nodeId: string, suffix: IngestSuffix, basicIngest: boolean): string {
  return (basicIngest ? basicIngestTopic(nodeId, suffix) : undefined) ?? nodeTopic(nodeId, suffix);
}

function deviceConfig(device: DeviceDefinition): Record<string, unknown> {
  return {
    name: device.name,
    type: device.type,
    ...(device.primary ? { primary: device.primary } : {}),
    params: device.params.map((param) => ({ ...param })),
  };
}

/** The node config (B.4.1) a node publishes on every connect. */
export function nodeConfigPayload(spec: NodeSpec, profile: ApplianceProfile): NodeConfigPayload {
  const [device, ...services] = deviceDefinitions(profile);
  return {
    node_id: spec.node_id,
    config_version: CONFIG_VERSION,
    info: {
      name: spec.name,
      fw_version: spec.fw_version,
      type: spec.type,
      model: spec.model,
      project_name: profile.projectName,
      platform: profile.platform,
    },
    attributes: [
      { name: 'serial_num', value: spec.tags[1]?.split(':')[1] ?? '' },
      { name: 'manufacturer', value: 'Fleetdeck Appliances' },
    ],
    devices: device ? [deviceConfig(device)] : [],
    services: services.map(deviceConfig),
  };
}

/** The birth message (connected) or the Last Will (disconnected) on `node/<id>/connection`. */
export function connectionPayload(
  connected: boolean,
  session: number,
  timestamp: number,
): ConnectionPayload {
  return { connected, timestamp, session };
}

/** The node's half of the secret-key mapping flow (B.7): it relays what the app gave it. */
export function userMappingPayload(
  nodeId: string,
  userId: string,
  secretKey: string,
): UserMappingPayload {
  return { node_id: nodeId, user_id: userId, secret_key: secretKey };
}
