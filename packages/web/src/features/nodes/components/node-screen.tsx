import { Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import type { ReactNode } from 'react';
import { WRAP_ANYWHERE } from '../../../components/detail-field';

/** The frame of a node screen: its heading, an optional line under it, then the list. */
export function NodeScreen({
  title,
  subtitle,
  children,
}: {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
}) {
  useDocumentTitle(`${title} · Fleetdeck`);
  return (
    <Stack gap="lg">
      <Stack gap={2}>
        <Title order={1} size="h2" style={WRAP_ANYWHERE}>
          {title}
        </Title>
        {subtitle !== undefined && (
          <Text c="dimmed" size="sm" style={WRAP_ANYWHERE}>
            {subtitle}
          </Text>
        )}
      </Stack>
      {children}
    </Stack>
  );
}
