import { MantineProvider } from '@mantine/core';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { Component, Suspense, lazy, type ReactNode } from 'react';
import { cssVariablesResolver, theme } from './theme';

/**
 * The toast container is loaded beside the first render rather than before it. Toasts raised in
 * the meantime wait in the notifications store and appear once it mounts.
 */
const ToastContainer = lazy(async () => ({
  default: (await import('./toast-container')).ToastContainer,
}));

/**
 * Without the toast container's chunk (a network failure at start) the app runs on without toasts;
 * an error here would otherwise unmount the whole app, which has no boundary above the router.
 */
class ToastBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override render() {
    return this.state.failed ? null : this.props.children;
  }
}

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
      <ToastBoundary>
        <Suspense fallback={null}>
          <ToastContainer />
        </Suspense>
      </ToastBoundary>
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </MantineProvider>
  );
}
