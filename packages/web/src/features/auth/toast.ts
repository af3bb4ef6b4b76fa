import { TOAST_AUTO_CLOSE_MS } from '@fleetdeck/contract';
import { notifications } from '@mantine/notifications';

/** A green toast that closes after the spec's 5 seconds. */
export function successToast(message: string): void {
  notifications.show({ color: 'green', message, autoClose: TOAST_AUTO_CLOSE_MS });
}
