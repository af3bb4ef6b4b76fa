import { Box, Progress } from '@mantine/core';

/** A thin bar under a list's toolbar while it refetches; its 2 px are reserved so nothing jumps. */
export function FetchingBar({ active, label }: { active: boolean; label: string }) {
  return (
    <Box h={2}>
      {active && <Progress value={100} animated size={2} radius={0} aria-label={label} />}
    </Box>
  );
}
