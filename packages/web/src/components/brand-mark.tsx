import { Group, Text } from '@mantine/core';

/** Fleetdeck's mark: a rounded tile with an "F" for the fleet, beside the product name. */
export function BrandMark({ size = 'md' }: { size?: 'md' | 'lg' }) {
  const tile = size === 'lg' ? 40 : 30;
  return (
    <Group gap={10} wrap="nowrap">
      <svg width={tile} height={tile} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
        <rect width="32" height="32" rx="8" fill="var(--mantine-color-fleet-8)" />
        <path d="M9 9h14v4H13v3h8v4h-8v5H9z" fill="#fff" />
      </svg>
      <Text
        component="span"
        fw={700}
        fz={size === 'lg' ? 26 : 20}
        c="fleet.9"
        style={{ letterSpacing: '-0.02em' }}
      >
        Fleetdeck
      </Text>
    </Group>
  );
}
