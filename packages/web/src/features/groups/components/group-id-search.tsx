import { SEARCH_MAX_LENGTH } from '@fleetdeck/contract';
import { Button, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { GROUP_LABELS } from '../labels';
import { groupDetailsPath, normaliseGroupId } from '../model/group-form';

/** A search by group id that opens that group's details (fleet-management §2). */
export function GroupIdSearch() {
  const navigate = useNavigate();
  const [text, setText] = useState('');
  const id = normaliseGroupId(text);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (id !== undefined) void navigate(groupDetailsPath(id));
  };

  return (
    <form onSubmit={submit} role="search" style={{ display: 'contents' }}>
      <TextInput
        size="sm"
        w={{ base: '100%', xs: 260 }}
        name="group-id"
        label={GROUP_LABELS.searchGroupId}
        placeholder={GROUP_LABELS.searchGroupIdPlaceholder}
        maxLength={SEARCH_MAX_LENGTH}
        autoComplete="off"
        spellCheck={false}
        value={text}
        onChange={(event) => setText(event.currentTarget.value)}
        leftSection={<IconSearch size={16} aria-hidden="true" />}
      />
      <Button type="submit" variant="default" disabled={id === undefined}>
        {GROUP_LABELS.open}
      </Button>
    </form>
  );
}
