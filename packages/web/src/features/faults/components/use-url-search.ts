import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { SEARCH_DEBOUNCE_MS } from '../../nodes/components/use-search-filter';
import { normaliseSearch } from '../../nodes/model/search';

/**
 * A search box whose applied search lives in the URL (`?search=`), so a link can open a list
 * already searched (the fault device list links to one device's Fault History) and Back returns
 * to it. Like useSearchFilter (spec §5): debounced while typing, at once on Enter, cleared at once
 * when the box is emptied; whitespace-only text applies no search; at most 64 characters.
 */
export function useUrlSearch(param = 'search', delayMs: number = SEARCH_DEBOUNCE_MS) {
  const [params, setParams] = useSearchParams();
  const applied = normaliseSearch(params.get(param) ?? '');
  const [text, setText] = useState(applied ?? '');
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => () => clearTimeout(timer.current), []);

  // A link or Back changed the URL: the box follows it (state adjusted while rendering).
  const [seen, setSeen] = useState(applied);
  if (seen !== applied) {
    setSeen(applied);
    if (normaliseSearch(text) !== applied) setText(applied ?? '');
  }

  const apply = (search: string | undefined) => {
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (search === undefined) next.delete(param);
        else next.set(param, search);
        return next;
      },
      { replace: true },
    );
  };

  const change = (next: string) => {
    setText(next);
    clearTimeout(timer.current);
    const search = normaliseSearch(next);
    if (search === undefined) {
      apply(undefined);
      return;
    }
    timer.current = setTimeout(() => apply(search), delayMs);
  };

  const applyNow = () => {
    clearTimeout(timer.current);
    apply(normaliseSearch(text));
  };

  return { text, applied, change, applyNow };
}
