import { describe, expect, it } from 'vitest';
import { returnPathAfterLogin } from './return-path';

describe('returnPathAfterLogin', () => {
  it('returns to the signed-in page the guard turned away', () => {
    expect(returnPathAfterLogin({ from: '/home/change-password/' }, '/home')).toBe(
      '/home/change-password/',
    );
    expect(returnPathAfterLogin({ from: '/Home/nodes?status=true' }, '/home')).toBe(
      '/Home/nodes?status=true',
    );
  });

  it('goes to /home without a usable origin', () => {
    expect(returnPathAfterLogin(null, '/home')).toBe('/home');
    expect(returnPathAfterLogin({ from: 42 }, '/home')).toBe('/home');
    expect(returnPathAfterLogin({ from: '/login' }, '/home')).toBe('/home');
    expect(returnPathAfterLogin({ from: '/homepage' }, '/home')).toBe('/home');
  });

  it('never leaves the site', () => {
    expect(returnPathAfterLogin({ from: '//evil.example/home' }, '/home')).toBe('/home');
    expect(returnPathAfterLogin({ from: 'https://evil.example/home' }, '/home')).toBe('/home');
  });
});
