import { describe, expect, it } from 'vitest';
import { readCookie } from './cookies';

describe('readCookie', () => {
  it('finds a cookie among others', () => {
    expect(readCookie('Diag', 'user_name=a%40b.c; Diag=true; cst=1')).toBe('true');
    expect(readCookie('user_name', 'user_name=a%40b.c; Diag=true')).toBe('a@b.c');
  });

  it('is null when the cookie is missing and does not match on a prefix', () => {
    expect(readCookie('Diag', 'Diagnostics=true')).toBeNull();
    expect(readCookie('Diag', '')).toBeNull();
  });
});
