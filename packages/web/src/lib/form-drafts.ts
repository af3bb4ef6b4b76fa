import { useEffect, useRef, useState, type Dispatch, type SetStateAction } from 'react';

/**
 * What an operator has typed into a form survives the end of the session (QUALITY R11: "a 401
 * mid-form … the form's data is kept"). The session ends with a toast and a trip to /login
 * (access §8); just before that, every form that registered here is written to this tab's
 * sessionStorage, and when the same user is back on the same screen the form starts from it.
 *
 * Nothing is written while the operator types, only at that moment, and a draft is read once:
 * closing a form or saving it leaves nothing behind. Never use this for passwords, codes or keys.
 */

const STORAGE_PREFIX = 'fleetdeck.draft.';
/** A draft older than this is not offered back (a tab left at /login overnight). */
export const DRAFT_MAX_AGE_MS = 60 * 60 * 1000;

interface StoredDraft {
  owner: string;
  saved_at: number;
  value: unknown;
}

interface LiveDraft {
  read: () => unknown;
  initial: unknown;
}

const live = new Map<string, LiveDraft>();

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.sessionStorage;
  } catch {
    return null;
  }
}

/**
 * Whether `value` has the shape of `initial`: same kind, and for objects the same keys with
 * values of the same kinds (one level deep). A draft of an older version of the form, or one
 * edited by hand, is dropped rather than fed into the form.
 */
export function sameShape(initial: unknown, value: unknown): boolean {
  const kind = (v: unknown) => (Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v);
  if (kind(initial) !== kind(value)) return false;
  if (kind(initial) !== 'object') return true;
  const a = initial as Record<string, unknown>;
  const b = value as Record<string, unknown>;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => Object.hasOwn(b, key) && kind(a[key]) === kind(b[key]));
}

/** Tells the drafts an open form exists; returns the function that forgets it again. */
export function registerDraft(key: string, read: () => unknown, initial: unknown): () => void {
  const entry: LiveDraft = { read, initial };
  live.set(key, entry);
  return () => {
    if (live.get(key) === entry) live.delete(key);
  };
}

/**
 * Writes every open form that differs from how it started, for `owner` (the user whose session
 * is ending). Called by the session-expiry handling before it leaves the screen.
 */
export function saveDraftsForLater(owner: string, nowMs: number = Date.now()): number {
  const store = storage();
  if (!store) return 0;
  let saved = 0;
  for (const [key, draft] of live) {
    const value = draft.read();
    if (JSON.stringify(value) === JSON.stringify(draft.initial)) continue;
    const stored: StoredDraft = { owner, saved_at: nowMs, value };
    try {
      store.setItem(STORAGE_PREFIX + key, JSON.stringify(stored));
      saved += 1;
    } catch {
      // Quota or privacy settings: this draft is lost, the others may still fit.
    }
  }
  return saved;
}

/**
 * The draft saved for `key`, if it belongs to `owner`, is recent and fits the form's shape;
 * removed from storage either way, so it is offered once.
 */
export function takeDraft<T>(
  key: string,
  owner: string,
  initial: T,
  nowMs: number = Date.now(),
): T | undefined {
  const store = storage();
  if (!store) return undefined;
  let raw: string | null;
  try {
    raw = store.getItem(STORAGE_PREFIX + key);
    if (raw === null) return undefined;
    store.removeItem(STORAGE_PREFIX + key);
  } catch {
    return undefined;
  }
  let stored: unknown;
  try {
    stored = JSON.parse(raw);
  } catch {
    return undefined;
  }
  if (typeof stored !== 'object' || stored === null) return undefined;
  const { owner: storedOwner, saved_at: savedAt, value } = stored as Partial<StoredDraft>;
  if (storedOwner !== owner || typeof savedAt !== 'number') return undefined;
  if (nowMs - savedAt > DRAFT_MAX_AGE_MS || savedAt > nowMs) return undefined;
  return sameShape(initial, value) ? (value as T) : undefined;
}

/** Forgets every saved draft (another user signs in on this tab). */
export function dropSavedDrafts(): void {
  const store = storage();
  if (!store) return;
  try {
    const keys: string[] = [];
    for (let i = 0; i < store.length; i += 1) {
      const key = store.key(i);
      if (key?.startsWith(STORAGE_PREFIX)) keys.push(key);
    }
    for (const key of keys) store.removeItem(key);
  } catch {
    // Nothing to drop when storage is unavailable.
  }
}

/**
 * `useState` for a form's values that survives the session ending under the operator. `key`
 * names the form (unique among the forms open at once); `owner` is the signed-in user's id.
 * Returns the state, its setter, and whether the form started from a saved draft.
 */
export function useDraftState<T>(
  key: string,
  owner: string,
  initial: T | (() => T),
): [T, Dispatch<SetStateAction<T>>, boolean] {
  const [start] = useState(() => {
    const empty = typeof initial === 'function' ? (initial as () => T)() : initial;
    const draft = takeDraft(key, owner, empty);
    return { empty, draft };
  });
  const [value, setValue] = useState<T>(start.draft ?? start.empty);
  const current = useRef(value);
  useEffect(() => {
    current.current = value;
  }, [value]);
  useEffect(() => registerDraft(key, () => current.current, start.empty), [key, start.empty]);
  return [value, setValue, start.draft !== undefined];
}
