import { SEARCH_MAX_LENGTH } from '@fleetdeck/contract';
import { CloseButton, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { memo } from 'react';
import classes from './filter-field.module.css';

/**
 * A search box (max 64 characters) with a clear button; Enter searches at once. Memoised: give
 * it stable handlers and it renders only when its own text changes.
 */
export const SearchInput = memo(function SearchInput({
  label,
  placeholder,
  value,
  onChange,
  onEnter,
  name,
  width = 240,
}: {
  label: string;
  placeholder: string;
  value: string;
  onChange: (value: string) => void;
  onEnter?: () => void;
  name: string;
  width?: number;
}) {
  return (
    <TextInput
      size="sm"
      className={classes.field}
      style={{ '--filter-field-width': `${width}px` }}
      type="search"
      name={name}
      label={label}
      placeholder={placeholder}
      maxLength={SEARCH_MAX_LENGTH}
      autoComplete="off"
      spellCheck={false}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      onKeyDown={(event) => {
        if (event.key === 'Enter') {
          event.preventDefault();
          onEnter?.();
        }
      }}
      leftSection={<IconSearch size={16} aria-hidden="true" />}
      rightSection={
        value !== '' ? (
          <CloseButton
            size="sm"
            aria-label={`Clear ${label.toLowerCase()}`}
            onClick={() => onChange('')}
          />
        ) : null
      }
    />
  );
});
