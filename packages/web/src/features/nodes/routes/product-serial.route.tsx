import { MESSAGES, SEARCH_MAX_LENGTH } from '@fleetdeck/contract';
import { Button, CloseButton, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { NodeListPanel } from '../components/node-list-panel';
import { NodeScreen } from '../components/node-screen';
import { NODE_LABELS } from '../labels';
import { normaliseSearch } from '../model/search';

/**
 * /home/Productserial (access §2): a serial-number search (placeholder 'Enter Serial no.',
 * max 64, non-empty required) and the matching device. The serial matches exactly; the list
 * is asked only once a serial is searched for.
 */
export function ProductSerialRoute() {
  const [text, setText] = useState('');
  const [serial, setSerial] = useState<string | undefined>(undefined);
  const wanted = normaliseSearch(text);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (wanted !== undefined) setSerial(wanted);
  };

  return (
    <NodeScreen title={NODE_LABELS.productSerialHeading}>
      <NodeListPanel
        filters={{ serial }}
        enabled={serial !== undefined}
        idle={NODE_LABELS.serialPrompt}
        emptyMessage={MESSAGES.deviceNotFound}
        controls={
          <form onSubmit={submit} style={{ display: 'contents' }} role="search">
            <TextInput
              size="sm"
              w={{ base: '100%', xs: 260 }}
              name="serial"
              label={NODE_LABELS.searchSerial}
              placeholder={NODE_LABELS.serialPlaceholder}
              maxLength={SEARCH_MAX_LENGTH}
              required
              autoComplete="off"
              spellCheck={false}
              value={text}
              onChange={(event) => setText(event.currentTarget.value)}
              leftSection={<IconSearch size={16} aria-hidden="true" />}
              rightSection={
                text !== '' ? (
                  <CloseButton
                    size="sm"
                    aria-label={`Clear ${NODE_LABELS.searchSerial.toLowerCase()}`}
                    onClick={() => {
                      setText('');
                      setSerial(undefined);
                    }}
                  />
                ) : null
              }
            />
            <Button type="submit" disabled={wanted === undefined}>
              {NODE_LABELS.search}
            </Button>
          </form>
        }
      />
    </NodeScreen>
  );
}
