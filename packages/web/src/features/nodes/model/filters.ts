import { MESSAGES, NODE_TYPES, type NodeStatus, type NodeType } from '@fleetdeck/contract';
import { NODE_LABELS } from '../labels';

/**
 * The `status` query parameter of the Devices list and Device reports (fleet-management §2):
 * true means online, false offline; anything else (or nothing) lists every status.
 */
export function statusFromParam(
  value: string | null,
): Extract<NodeStatus, 'online' | 'offline'> | undefined {
  const normalised = value?.trim().toLowerCase();
  if (normalised === 'true') return 'online';
  if (normalised === 'false') return 'offline';
  return undefined;
}

/** Manage device reads `status` differently (access §2): true is online, otherwise offline. */
export function manageDeviceStatusFromParam(value: string | null): 'online' | 'offline' {
  return value?.trim().toLowerCase() === 'true' ? 'online' : 'offline';
}

/**
 * The `type` query parameter as a node type, matched without regard to case. `Washer`, the
 * Graphs screen's value for washing machines, means Washing Machine. Anything else is no filter.
 */
export function typeFromParam(value: string | null): NodeType | undefined {
  const normalised = value?.trim().toLowerCase();
  if (!normalised) return undefined;
  if (normalised === NODE_LABELS.washerAlias.toLowerCase()) return 'Washing Machine';
  return NODE_TYPES.find((type) => type.toLowerCase() === normalised);
}

/** A choice of a type dropdown: `value` goes in the URL, `label` is shown. */
export interface TypeOption {
  value: string;
  label: string;
}

/** Devices list, Device reports: All Devices, then every node type. */
export const TYPE_OPTIONS_WITH_ALL: readonly TypeOption[] = [
  { value: '', label: NODE_LABELS.allDevices },
  ...NODE_TYPES.map((type) => ({ value: type, label: type })),
];

/**
 * Graphs (fleet-management §2): Air Conditioner, Refrigerator and Washer, the last shown as
 * Washing Machine. There is no "all" choice; without a `type` parameter the first one applies.
 * The option's value is the node type the server stores (`?type=Washer` is read as the same).
 */
export const GRAPH_TYPE_OPTIONS: readonly TypeOption[] = NODE_TYPES.map((type) => ({
  value: type,
  label: type,
}));

/** Geo Region (access §2): the three node types, the first one chosen at the start. */
export const GEO_TYPE_OPTIONS: readonly TypeOption[] = GRAPH_TYPE_OPTIONS;

/**
 * What an empty Devices list says (fleet-management §8): with nothing asked of it the fleet has
 * no nodes yet ('No nodes found. Please start by claiming.'); with any filter or search, nothing
 * matched ('Nodes not found.').
 */
export function emptyFleetMessage(filters: Record<string, string | undefined>): string {
  const filtered = Object.values(filters).some((value) => value !== undefined && value !== '');
  return filtered ? MESSAGES.nodesNotFound : MESSAGES.noNodesClaim;
}
