import type { NodeInfo } from '@fleetdeck/contract';
import type { NodeListRow } from '../../repositories/node.repository.js';

function parseJson(text: string | null): unknown {
  if (text === null) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** A node row as RainMaker's NodeInfo. */
export function toNodeInfo(row: NodeListRow, withDocuments: boolean): NodeInfo {
  const connectivity =
    row.connected === null
      ? {}
      : { connected: row.connected === 1, timestamp: Number(row.conn_changed_at ?? 0) };
  const info: NodeInfo = {
    node_id: row.node_id,
    name: row.name,
    type: row.type,
    model: row.model,
    fw_version: row.fw_version,
    tags: JSON.parse(row.tags) as string[],
    node_status:
      row.connected === null ? 'not_activated' : row.connected === 1 ? 'online' : 'offline',
    status: { connectivity },
    registration_timestamp: Number(row.registered_at),
    is_claimed: row.primary_user_id !== null,
  };
  if (row.activated_at !== null) info.activation_timestamp = Number(row.activated_at);
  if (row.conn_changed_at !== null)
    info.laststatusupdate_timestamp = Math.floor(Number(row.conn_changed_at) / 1000);
  if (row.config_updated_at !== null)
    info.last_config_update_timestamp = Number(row.config_updated_at);
  if (row.last_activity_at !== null) info.last_activity_timestamp = Number(row.last_activity_at);
  if (withDocuments) {
    info.config = parseJson(row.config);
    info.params = parseJson(row.params);
  }
  return info;
}
