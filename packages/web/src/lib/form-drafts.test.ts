import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  DRAFT_MAX_AGE_MS,
  dropSavedDrafts,
  registerDraft,
  sameShape,
  saveDraftsForLater,
  takeDraft,
} from './form-drafts';

class MemoryStorage {
  readonly items = new Map<string, string>();
  get length() {
    return this.items.size;
  }
  key(index: number) {
    return [...this.items.keys()][index] ?? null;
  }
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.items.set(key, value);
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
}

const EMPTY = { group_name: '', description: '', filters: { city: '' } };

describe('form drafts', () => {
  let storage: MemoryStorage;
  const forget: Array<() => void> = [];

  beforeEach(() => {
    storage = new MemoryStorage();
    vi.stubGlobal('window', { sessionStorage: storage });
  });
  afterEach(() => {
    for (const f of forget.splice(0)) f();
    vi.unstubAllGlobals();
  });

  it('saves the forms that were changed, for their user, and offers each back once', () => {
    const typed = {
      group_name: 'Pune ACs',
      description: 'ünïcode, "quotes"',
      filters: { city: 'Pune' },
    };
    forget.push(registerDraft('groups.create', () => typed, EMPTY));
    forget.push(registerDraft('users.add', () => ({ ...EMPTY }), EMPTY));
    expect(saveDraftsForLater('user-1', 1_000)).toBe(1);
    expect(storage.items.size).toBe(1);

    expect(takeDraft('groups.create', 'user-1', EMPTY, 2_000)).toEqual(typed);
    expect(takeDraft('groups.create', 'user-1', EMPTY, 2_000)).toBeUndefined();
    expect(takeDraft('users.add', 'user-1', EMPTY, 2_000)).toBeUndefined();
  });

  it('never gives a draft to another user, and drops it', () => {
    forget.push(registerDraft('profile.name', () => 'Asha Rao', ''));
    saveDraftsForLater('user-1', 1_000);
    expect(takeDraft('profile.name', 'user-2', '', 2_000)).toBeUndefined();
    expect(storage.items.size).toBe(0);
  });

  it('forgets a form once it is closed', () => {
    const unregister = registerDraft('profile.name', () => 'Asha Rao', '');
    unregister();
    expect(saveDraftsForLater('user-1')).toBe(0);
  });

  it('does not offer a draft older than an hour, or one from the future', () => {
    forget.push(registerDraft('profile.name', () => 'Asha', ''));
    saveDraftsForLater('u', 10_000);
    expect(takeDraft('profile.name', 'u', '', 10_000 + DRAFT_MAX_AGE_MS + 1)).toBeUndefined();
    saveDraftsForLater('u', 10_000);
    expect(takeDraft('profile.name', 'u', '', 9_000)).toBeUndefined();
    saveDraftsForLater('u', 10_000);
    expect(takeDraft('profile.name', 'u', '', 10_000 + DRAFT_MAX_AGE_MS)).toBe('Asha');
  });

  it('drops a draft that does not fit the form any more, or is not JSON', () => {
    storage.setItem(
      'fleetdeck.draft.groups.create',
      JSON.stringify({ owner: 'u', saved_at: 1, value: { group_name: 7 } }),
    );
    expect(takeDraft('groups.create', 'u', EMPTY, 2)).toBeUndefined();
    storage.setItem('fleetdeck.draft.groups.create', '{not json');
    expect(takeDraft('groups.create', 'u', EMPTY, 2)).toBeUndefined();
    expect(storage.items.size).toBe(0);
  });

  it('compares shapes one level deep', () => {
    expect(sameShape(EMPTY, { group_name: 'a', description: '', filters: {} })).toBe(true);
    expect(sameShape(EMPTY, { group_name: 'a', description: '' })).toBe(false);
    expect(sameShape(EMPTY, { group_name: 'a', description: '', filters: [] })).toBe(false);
    expect(sameShape({ roles: [] as string[] }, { roles: ['admin'] })).toBe(true);
    expect(sameShape(false, true)).toBe(true);
    expect(sameShape('', null)).toBe(false);
  });

  it('drops every saved draft on sign-out, and nothing else', () => {
    forget.push(registerDraft('profile.name', () => 'Asha', ''));
    saveDraftsForLater('u');
    storage.setItem('other.key', 'kept');
    dropSavedDrafts();
    expect([...storage.items.keys()]).toEqual(['other.key']);
  });

  it('works without storage (privacy settings)', () => {
    vi.stubGlobal('window', {
      get sessionStorage(): Storage {
        throw new Error('denied');
      },
    });
    forget.push(registerDraft('profile.name', () => 'Asha', ''));
    expect(saveDraftsForLater('u')).toBe(0);
    expect(takeDraft('profile.name', 'u', '')).toBeUndefined();
  });
});
