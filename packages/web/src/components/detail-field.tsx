import { Box, Stack, Text } from '@mantine/core';
import type { CSSProperties, ReactNode } from 'react';

/**
 * Values such as names, ids and descriptions may be one long word (a 500-character description
 * without a space, a 64-character image name); they break anywhere rather than widen the page.
 */
export const WRAP_ANYWHERE: CSSProperties = { overflowWrap: 'anywhere' };

/** One labelled value of a details card; `span` gives it the card's whole row. */
export function DetailField({
  label,
  children,
  span = false,
}: {
  label: string;
  children: ReactNode;
  span?: boolean;
}) {
  return (
    <Stack gap={2} miw={0} style={span ? { gridColumn: '1 / -1' } : undefined}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Box fz="sm" style={WRAP_ANYWHERE}>
        {children}
      </Box>
    </Stack>
  );
}
