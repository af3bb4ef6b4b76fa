import { STATIC_SHELL_ATTRIBUTE } from './static-shell-names';

/** The longest a static shell stays once the app has started, whatever it still waits for. */
export const STATIC_SHELL_MAX_WAIT_MS = 5_000;

/** The part of the data router this module needs. */
interface RouterLike {
  state: { initialized: boolean; navigation: { state: string } };
  subscribe: (listener: (state: RouterLike['state']) => void) => () => void;
}

/** The name of the static shell the server put into #root (ADR 35), or null without one. */
export function staticShellName(container: HTMLElement): string | null {
  return (
    container
      .querySelector(`:scope > [${STATIC_SHELL_ATTRIBUTE}]`)
      ?.getAttribute(STATIC_SHELL_ATTRIBUTE) ?? null
  );
}

function routerSettled(router: RouterLike): Promise<void> {
  const settled = (state: RouterLike['state']) =>
    state.initialized && state.navigation.state === 'idle';
  if (settled(router.state)) return Promise.resolve();
  return new Promise((resolve) => {
    const unsubscribe = router.subscribe((state) => {
      if (!settled(state)) return;
      unsubscribe();
      resolve();
    });
  });
}

/**
 * When the app may take the page over from a static shell: once the router has loaded the page's
 * modules (and followed any redirect) and what the first screen reads has arrived (the session
 * probe on a signed-in page, the deployment's facts on the sign-in page), so that the app's first
 * screen is the page as the shell showed it, not a loader or a shorter form in between.
 * Never later than STATIC_SHELL_MAX_WAIT_MS: a slow network then shows the app's own loaders.
 */
export function whenAppCanReplaceShell(
  router: RouterLike,
  firstReads: readonly (Promise<unknown> | null)[],
  maxWaitMs = STATIC_SHELL_MAX_WAIT_MS,
): Promise<void> {
  const ready = Promise.all([
    routerSettled(router),
    ...firstReads.map((read) => read?.catch(() => undefined)),
  ]);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const cap = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, maxWaitMs);
  });
  return Promise.race([ready.then(() => undefined), cap]).finally(() => clearTimeout(timer));
}
