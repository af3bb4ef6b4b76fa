import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { focusPageHeading } from '../../lib/use-dialog-target';
import { MAIN_CONTENT_ID } from './dashboard-frame';

/** How long a page may take to show its heading (lazy code, first data) before we give up. */
const HEADING_WAIT_MS = 3000;

/**
 * After a move to another page (the path, not the query string: a list's filters live there),
 * focus goes to the new page's h1, so screen readers announce where the user is and the next Tab
 * starts in the page instead of back in the sidebar. Not on the first load (the browser starts at
 * the top), and not when the page has already put focus inside itself (e.g. an autofocused field).
 */
export function useHeadingFocusOnNavigation(): void {
  const { pathname } = useLocation();
  const previous = useRef(pathname);

  useEffect(() => {
    if (previous.current === pathname) return;
    previous.current = pathname;

    const main = document.getElementById(MAIN_CONTENT_ID);
    if (main === null) return;
    const tryFocus = (): boolean => {
      if (main.contains(document.activeElement) && document.activeElement !== main) return true;
      return main.querySelector('h1') !== null && focusPageHeading();
    };
    if (tryFocus()) return;

    // The heading may come a moment later (a lazy page, a loading state): wait for it.
    const observer = new MutationObserver(() => {
      if (tryFocus()) stop();
    });
    const timer = window.setTimeout(() => stop(), HEADING_WAIT_MS);
    const stop = () => {
      observer.disconnect();
      window.clearTimeout(timer);
    };
    observer.observe(main, { childList: true, subtree: true });
    return stop;
  }, [pathname]);
}
