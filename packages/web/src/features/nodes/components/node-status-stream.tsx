import { useNodeConnectivityStream } from '../api/node-events.stream';

/** Mounted once in the dashboard shell: the live status of every node list. */
export function NodeStatusStream({ enabled }: { enabled: boolean }) {
  useNodeConnectivityStream(enabled);
  return null;
}
