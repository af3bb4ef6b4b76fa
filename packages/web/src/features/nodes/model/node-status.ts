import type { NodeInfo } from '@fleetdeck/contract';
import { NODE_LABELS } from '../labels';

/** What a status dot shows (access §4 "Node connectivity"). */
export type Connectivity = 'connected' | 'disconnected' | 'unknown';

/**
 * Green when the node is connected, red when it is not, grey when the status is unknown: a node
 * that never connected has no `connected` field, and a missing status object counts the same.
 */
export function connectivityOf(node: {
  status?: { connectivity?: { connected?: boolean | undefined } | undefined } | undefined;
}): Connectivity {
  const connected = node.status?.connectivity?.connected;
  if (connected === true) return 'connected';
  if (connected === false) return 'disconnected';
  return 'unknown';
}

/** The dot colours, as Mantine colour variables. */
export const CONNECTIVITY_COLOR: Record<Connectivity, string> = {
  // Shade 8 (6) keeps the dot at 3:1 or more against white and the page's grey (WCAG 1.4.11).
  connected: 'var(--mantine-color-green-8)',
  disconnected: 'var(--mantine-color-red-8)',
  unknown: 'var(--mantine-color-gray-6)',
};

/** The words for a status, for screen readers, tooltips and the CSV. */
export const CONNECTIVITY_LABEL: Record<Connectivity, string> = {
  connected: NODE_LABELS.statusConnected,
  disconnected: NODE_LABELS.statusDisconnected,
  unknown: NODE_LABELS.statusUnknown,
};

/** The status word of a node. */
export function connectivityLabel(node: Pick<NodeInfo, 'status'>): string {
  return CONNECTIVITY_LABEL[connectivityOf(node)];
}
