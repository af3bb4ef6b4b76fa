import { useEffect, useRef, useState } from 'react';
import { useStableHandler } from '../../../lib/use-stable-handler';
import { normaliseSearch } from '../model/search';

/** Typing settles for this long before the list is asked again. */
export const SEARCH_DEBOUNCE_MS = 350;

/**
 * A search box's text and the search it applies (spec §5): debounced while typing, at once on
 * Enter, and cleared at once when the box is emptied, so the full list comes straight back.
 * Whitespace-only text applies no search.
 */
export function useSearchFilter(delayMs: number = SEARCH_DEBOUNCE_MS) {
  const [text, setText] = useState('');
  const [applied, setApplied] = useState<string | undefined>(undefined);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => () => clearTimeout(timer.current), []);

  // Stable, so a memoised search box skips the renders its text takes no part in.
  const change = useStableHandler((next: string) => {
    setText(next);
    clearTimeout(timer.current);
    const search = normaliseSearch(next);
    if (search === undefined) {
      setApplied(undefined);
      return;
    }
    timer.current = setTimeout(() => setApplied(search), delayMs);
  });

  const applyNow = useStableHandler(() => {
    clearTimeout(timer.current);
    setApplied(normaliseSearch(text));
  });

  return { text, applied, change, applyNow };
}
