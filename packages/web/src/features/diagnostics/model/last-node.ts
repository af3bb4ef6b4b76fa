/**
 * The node whose diagnostics were viewed last, so /home/diagnostics without a device id goes
 * back to it. A plain string in localStorage; storage may be unavailable (private mode).
 */
const LAST_NODE_KEY = 'fleetdeck.diagnostics.last-node';

type KeyValueStore = Pick<Storage, 'getItem' | 'setItem'>;

function defaultStore(): KeyValueStore | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

export function readLastNode(store: KeyValueStore | null = defaultStore()): string | null {
  try {
    const value = store?.getItem(LAST_NODE_KEY)?.trim();
    return value ? value : null;
  } catch {
    return null;
  }
}

export function rememberLastNode(
  nodeId: string,
  store: KeyValueStore | null = defaultStore(),
): void {
  try {
    store?.setItem(LAST_NODE_KEY, nodeId);
  } catch {
    // Full or disabled storage only costs the convenience.
  }
}
