import { MantineProvider } from '@mantine/core';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { Suspense, lazy, type ReactNode } from 'react';
import { cssVariablesResolver, theme } from './theme';

/**
 * The toast container is loaded beside the first render rather than before it. Toasts raised in
 * the meantime wait in the notifications store and appear once it mounts.
 */
const ToastContainer = lazy(async () => ({
  default: (await import('./toast-container')).ToastContainer,
}));

/** Theme (light only), toasts (5000 ms, spec §9) and the query cache, around the router. */
export function AppProviders({
  queryClient,
  children,
}: {
  queryClient: QueryClient;
  children: ReactNode;
}) {
  return (
    <MantineProvider
      theme={theme}
      cssVariablesResolver={cssVariablesResolver}
      defaultColorScheme="light"
      forceColorScheme="light"
    >
      <Suspense fallback={null}>
        <ToastContainer />
      </Suspense>
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </MantineProvider>
  );
}
