import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useStableHandler } from '../../../lib/use-stable-handler';
import { normaliseSearch } from '../model/search';
import { SEARCH_DEBOUNCE_MS } from './use-search-filter';

/**
 * A search box whose applied search lives in the URL (`?search=`), so a link can open a list
 * already searched (the fault device list links to one device's Fault History) and Back returns
 * to it. Like useSearchFilter (spec §5): debounced while typing, at once on Enter, cleared at once
 * when the box is emptied; whitespace-only text applies no search; at most 64 characters.
 * `resetParams` are parameters a new search drops (the list's page: a new search starts at 1).
 */
export function useUrlSearch(
  param = 'search',
  delayMs: number = SEARCH_DEBOUNCE_MS,
  resetParams: readonly string[] = [],
) {
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
        if ((current.get(param) ?? undefined) === search) return current;
        const next = new URLSearchParams(current);
        for (const name of resetParams) next.delete(name);
        if (search === undefined) next.delete(param);
        else next.set(param, search);
        return next;
      },
      { replace: true },
    );
  };

  // Stable, so a memoised search box skips the renders its text takes no part in.
  const change = useStableHandler((next: string) => {
    setText(next);
    clearTimeout(timer.current);
    const search = normaliseSearch(next);
    if (search === undefined) {
      apply(undefined);
      return;
    }
    timer.current = setTimeout(() => apply(search), delayMs);
  });

  const applyNow = useStableHandler(() => {
    clearTimeout(timer.current);
    apply(normaliseSearch(text));
  });

  return { text, applied, change, applyNow };
}
