import { describe, expect, it } from 'vitest';
import { signedOutStart } from './signed-out-start';

const at = (pathname: string, search = '', hash = '') => ({ pathname, search, hash });
const signedOut = { canStoreSession: true, hasStoredSession: false };

describe('signedOutStart', () => {
  it('starts a signed-out visitor to a signed-in page at /login, keeping the whole page', () => {
    expect(
      signedOutStart(at('/home/nodes', '?status=true&type=Refrigerator', '#x'), signedOut),
    ).toEqual({ from: '/home/nodes?status=true&type=Refrigerator#x' });
    expect(signedOutStart(at('/home'), signedOut)).toEqual({ from: '/home' });
    // Routes match case-insensitively; so does the signed-in area.
    expect(signedOutStart(at('/HOME/Georegion'), signedOut)).toEqual({ from: '/HOME/Georegion' });
  });

  it('leaves public pages where they are', () => {
    for (const path of [
      '/login',
      '/',
      '/sign-up',
      '/forgot-password',
      '/homeless',
      '/privacy-policy',
    ]) {
      expect(signedOutStart(at(path), signedOut)).toBeNull();
    }
  });

  it('leaves the decision to the guard when the browser holds a session or cannot keep one', () => {
    expect(
      signedOutStart(at('/home/nodes'), { canStoreSession: true, hasStoredSession: true }),
    ).toBeNull();
    expect(
      signedOutStart(at('/home/nodes'), { canStoreSession: false, hasStoredSession: false }),
    ).toBeNull();
  });
});
