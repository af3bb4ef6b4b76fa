import { Center, Loader } from '@mantine/core';

/** A centred spinner for pages whose data or code is still loading. */
export function PageLoader({ fullScreen = true }: { fullScreen?: boolean }) {
  return (
    <Center h={fullScreen ? '100dvh' : 320} role="status" aria-live="polite">
      <Loader size="lg" aria-label="Loading" />
    </Center>
  );
}
