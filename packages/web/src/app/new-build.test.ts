import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  NEW_BUILD_RELOAD_KEY,
  NEW_BUILD_RELOAD_WINDOW_MS,
  isMissingChunkError,
  mayReloadForNewBuild,
  reloadForNewBuild,
} from './new-build';

class MemoryStorage {
  readonly values = new Map<string, string>();
  getItem(key: string) {
    return this.values.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.values.set(key, value);
  }
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('isMissingChunkError', () => {
  it("knows Chromium's, Firefox's and Safari's words for a chunk that did not load", () => {
    for (const message of [
      'Failed to fetch dynamically imported module: http://x/assets/geo-region.route-CRdDOpX5.js',
      'error loading dynamically imported module: http://x/assets/a-1.js',
      'Importing a module script failed.',
      'Unable to preload CSS for /assets/a-1.css',
    ]) {
      expect(isMissingChunkError(new TypeError(message)), message).toBe(true);
    }
  });

  it('leaves every other error to the error screen', () => {
    for (const error of [new Error('Something else'), 'Failed to fetch', null, undefined, {}]) {
      expect(isMissingChunkError(error)).toBe(false);
    }
  });
});

describe('reloadForNewBuild', () => {
  it('reloads once, then not again within the window, then again after it', () => {
    const storage = new MemoryStorage();
    vi.stubGlobal('window', { sessionStorage: storage });
    const reload = vi.fn();
    const start = 1_800_000_000_000;
    expect(reloadForNewBuild(start, reload)).toBe(true);
    expect(reload).toHaveBeenCalledTimes(1);
    expect(storage.getItem(NEW_BUILD_RELOAD_KEY)).toBe(String(start));
    // The reloaded page fails too: a real fault, not a release. No loop.
    expect(mayReloadForNewBuild(start + 2_000)).toBe(false);
    expect(reloadForNewBuild(start + 2_000, reload)).toBe(false);
    expect(reload).toHaveBeenCalledTimes(1);
    // The next release, later the same day.
    expect(reloadForNewBuild(start + NEW_BUILD_RELOAD_WINDOW_MS, reload)).toBe(true);
    expect(reload).toHaveBeenCalledTimes(2);
  });

  it('never reloads when the tab cannot remember that it did (storage off)', () => {
    vi.stubGlobal('window', {
      get sessionStorage(): Storage {
        throw new DOMException('denied', 'SecurityError');
      },
    });
    const reload = vi.fn();
    expect(reloadForNewBuild(1_800_000_000_000, reload)).toBe(false);
    expect(reload).not.toHaveBeenCalled();
  });

  it('treats a stored time in the future (a changed clock) as long ago', () => {
    const storage = new MemoryStorage();
    storage.setItem(NEW_BUILD_RELOAD_KEY, String(1_900_000_000_000));
    vi.stubGlobal('window', { sessionStorage: storage });
    expect(mayReloadForNewBuild(1_800_000_000_000)).toBe(true);
  });
});
