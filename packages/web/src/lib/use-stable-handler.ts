import { useCallback, useLayoutEffect, useRef } from 'react';

/**
 * An event handler whose identity never changes and that runs the latest `handler`. Memoised
 * children (a list's rows, pager and toolbar) then skip a render when only the screen's filters
 * changed (B8). Only for handlers called from events, i.e. after the render has been committed.
 */
export function useStableHandler<A extends unknown[], R>(
  handler: (...args: A) => R,
): (...args: A) => R {
  const latest = useRef(handler);
  useLayoutEffect(() => {
    latest.current = handler;
  });
  return useCallback((...args: A) => latest.current(...args), []);
}
