import { Box, Center, Paper, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { BrandMark } from './brand-mark';
import { Copyright } from './copyright';

/** The frame of the signed-out screens: brand, one card, copyright. Fits a 390 px phone. */
export function PublicPage({ children, width = 440 }: { children: ReactNode; width?: number }) {
  return (
    <Box
      component="main"
      mih="100dvh"
      style={{
        background:
          'linear-gradient(160deg, var(--mantine-color-fleet-0) 0%, var(--mantine-color-gray-0) 55%, #ffffff 100%)',
      }}
    >
      <Center mih="100dvh" px="md" py="xl">
        <Stack align="center" gap="lg" w="100%" maw={width}>
          <BrandMark size="lg" />
          <Paper withBorder shadow="sm" p={{ base: 'lg', xs: 'xl' }} w="100%">
            {children}
          </Paper>
          <Copyright />
        </Stack>
      </Center>
    </Box>
  );
}
