import { DEFAULT_PAGE_SIZE, MESSAGES, PAGE_SIZES, SEARCH_MAX_LENGTH } from '@fleetdeck/contract';
import { Button, CloseButton, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { withoutCursors } from '../../../lib/list-position';
import { useUrlCursorPaging } from '../../../lib/use-url-paging';
import { NodeListPanel } from '../components/node-list-panel';
import { NodeScreen } from '../components/node-screen';
import { NODE_LABELS } from '../labels';
import { normaliseSearch } from '../model/search';

/**
 * /home/Productserial (access §2): a serial-number search (placeholder 'Enter Serial no.',
 * max 64, non-empty required) and the matching device. The serial matches exactly; the list
 * is asked only once a serial is searched for. The searched serial (`?serial=`) and the page
 * live in the query string, so Back from a device returns to them.
 */
export function ProductSerialRoute() {
  const [params, setParams] = useSearchParams();
  const serial = normaliseSearch(params.get('serial') ?? '');
  const paging = useUrlCursorPaging(PAGE_SIZES.devices, DEFAULT_PAGE_SIZE);
  const [text, setText] = useState(serial ?? '');
  const wanted = normaliseSearch(text);

  // Back or a link changed the searched serial: the box follows it (adjusted while rendering).
  const [seen, setSeen] = useState(serial);
  if (seen !== serial) {
    setSeen(serial);
    setText(serial ?? '');
  }

  const setSerial = (value: string | undefined) =>
    setParams(
      (current) => {
        const next = withoutCursors(current);
        if (value === undefined) next.delete('serial');
        else next.set('serial', value);
        return next;
      },
      { replace: true },
    );

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
        paging={paging}
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
