import { SEARCH_MAX_LENGTH } from '@fleetdeck/contract';
import { Button, Group, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { DIAGNOSTICS_LABELS } from '../labels';
import { diagnosticsTabPath, type DiagnosticsTab } from '../model/paths';

/** Opens another device's diagnostics on the same tab (the report when none is open). */
export function DeviceIdSearch({ tab }: { tab: DiagnosticsTab }) {
  const navigate = useNavigate();
  const [text, setText] = useState('');
  const id = text.trim();

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (id === '') return;
    setText('');
    void navigate(diagnosticsTabPath(tab, id));
  };

  return (
    <form onSubmit={submit} role="search" style={{ width: '100%', maxWidth: 380 }}>
      <Group gap="xs" wrap="nowrap" align="flex-end">
        <TextInput
          size="sm"
          style={{ flex: '1 1 auto', minWidth: 0 }}
          name="device-id"
          aria-label={DIAGNOSTICS_LABELS.searchLabel}
          placeholder={DIAGNOSTICS_LABELS.searchPlaceholder}
          maxLength={SEARCH_MAX_LENGTH}
          autoComplete="off"
          spellCheck={false}
          value={text}
          onChange={(event) => setText(event.currentTarget.value)}
          leftSection={<IconSearch size={16} aria-hidden="true" />}
        />
        <Button type="submit" variant="default" disabled={id === ''} style={{ flex: 'none' }}>
          {DIAGNOSTICS_LABELS.searchSubmit}
        </Button>
      </Group>
    </form>
  );
}
