import { ActionIcon, Tooltip } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';

/** A list's or page's refresh: an icon button named by its tooltip, spinning while it reloads. */
export function RefreshButton({
  label,
  onClick,
  loading,
  disabled,
}: {
  label: string;
  onClick: () => void;
  loading: boolean;
  disabled?: boolean;
}) {
  return (
    <Tooltip label={label} withArrow>
      <ActionIcon
        variant="default"
        size={36}
        aria-label={label}
        onClick={onClick}
        loading={loading}
        disabled={disabled}
      >
        <IconRefresh size={18} aria-hidden="true" />
      </ActionIcon>
    </Tooltip>
  );
}
