import { Stack, Text } from '@mantine/core';

/** Callback URLs one per line, long ones broken anywhere so a table cell never overflows. */
export function UrlList({ urls }: { urls: readonly string[] }) {
  return (
    <Stack gap={2}>
      {urls.map((url) => (
        <Text key={url} size="sm" style={{ wordBreak: 'break-all' }}>
          {url}
        </Text>
      ))}
    </Stack>
  );
}
