import { MARKER_COOKIES } from '@fleetdeck/contract';
import { describe, expect, it } from 'vitest';
import { staticShellFor } from './web-app.js';

const signedIn = { [MARKER_COOKIES.userName]: 'ops@example.com' };

describe('staticShellFor (ADR 35)', () => {
  it('gives a browser without the session markers the sign-in page on every signed-in path', () => {
    for (const url of ['/', '/login', '/LOGIN/', '/home', '/home/nodes', '/home/Georegion?x=1']) {
      expect(staticShellFor(url, {}, 'standard'), url).toBe('login');
    }
    expect(staticShellFor('/home/nodes', {}, 'customer')).toBe('login-customer');
    expect(staticShellFor('/login', { [MARKER_COOKIES.userName]: '' }, 'standard')).toBe('login');
  });

  it('gives a signed-in browser the dashboard frame on the devices list only', () => {
    for (const url of ['/home/nodes', '/home/nodes/', '/HOME/Nodes', '/home/nodes?status=true']) {
      expect(staticShellFor(url, signedIn, 'standard'), url).toBe('devices');
    }
    for (const url of ['/', '/login', '/home', '/home/georegion', '/home/nodes/extra']) {
      expect(staticShellFor(url, signedIn, 'standard'), url).toBeNull();
    }
  });

  it('has no shell for public pages other than sign-in', () => {
    for (const url of ['/sign-up', '/forgot-password', '/privacy', '/homework']) {
      expect(staticShellFor(url, {}, 'standard'), url).toBeNull();
    }
  });
});
