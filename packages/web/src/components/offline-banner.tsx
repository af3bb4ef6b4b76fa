import { Alert } from '@mantine/core';
import { useNetwork } from '@mantine/hooks';
import { IconWifiOff } from '@tabler/icons-react';

/** Shown on every page while the browser has no network (QUALITY R11). */
export const OFFLINE_NOTICE =
  'You are offline. Nothing can be saved until the connection is back; what you have typed stays here.';

/**
 * A bar pinned to the top of the window while the browser reports no network. Saving still
 * fails with the usual message, and the form keeps its values, so the operator can save again
 * once the bar is gone. It does not take the session away: nobody is signed out for being offline.
 */
export function OfflineBanner() {
  const { online } = useNetwork();
  if (online) return null;
  return (
    <Alert
      color="orange"
      variant="filled"
      radius={0}
      icon={<IconWifiOff size={18} aria-hidden="true" />}
      role="status"
      data-testid="offline-banner"
      style={{ position: 'fixed', top: 0, left: 0, right: 0, zIndex: 1000 }}
    >
      {OFFLINE_NOTICE}
    </Alert>
  );
}
