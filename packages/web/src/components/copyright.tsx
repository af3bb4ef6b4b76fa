import { COPYRIGHT_YEAR } from '@fleetdeck/contract';
import { Text } from '@mantine/core';

/** The copyright line (access §2 and §9: the footer shows 2025). */
export function Copyright() {
  return (
    <Text size="xs" c="dimmed">
      © {COPYRIGHT_YEAR} Fleetdeck
    </Text>
  );
}
