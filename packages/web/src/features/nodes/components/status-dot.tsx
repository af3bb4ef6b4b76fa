import type { NodeInfo } from '@fleetdeck/contract';
import { CONNECTIVITY_COLOR, CONNECTIVITY_LABEL, connectivityOf } from '../model/node-status';

const DOT_SIZE = 10;
const RING_WIDTH = 2.5;

/**
 * The status dot: green connected, red disconnected, grey unknown (with its word for readers).
 * Disconnected is a ring rather than a filled dot, so it does not rest on colour alone.
 */
export function StatusDot({ node }: { node: Pick<NodeInfo, 'status'> }) {
  const state = connectivityOf(node);
  const label = CONNECTIVITY_LABEL[state];
  return (
    <span
      role="img"
      aria-label={label}
      title={label}
      data-status={state}
      style={{
        display: 'inline-block',
        width: DOT_SIZE,
        height: DOT_SIZE,
        borderRadius: '50%',
        boxSizing: 'border-box',
        ...(state === 'disconnected'
          ? { border: `${RING_WIDTH}px solid ${CONNECTIVITY_COLOR[state]}` }
          : { background: CONNECTIVITY_COLOR[state] }),
        verticalAlign: 'middle',
      }}
    />
  );
}
