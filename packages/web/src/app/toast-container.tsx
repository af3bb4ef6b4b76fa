import { TOAST_AUTO_CLOSE_MS } from '@fleetdeck/contract';
import { Notifications } from '@mantine/notifications';

/** Where toasts render: top right, closing after 5000 ms (spec §9). Loaded lazily by providers. */
export function ToastContainer() {
  return <Notifications autoClose={TOAST_AUTO_CLOSE_MS} position="top-right" limit={4} />;
}
