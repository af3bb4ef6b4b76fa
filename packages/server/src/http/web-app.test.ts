import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MARKER_COOKIES } from '@fleetdeck/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { readShellManifest, staticShellFor, type StaticShellManifest } from './web-app.js';

const signedIn = { [MARKER_COOKIES.userName]: 'ops@example.com' };
const manifest: StaticShellManifest = {
  login: { standard: 'login.html', customer: 'login-customer.html' },
  signedIn: { '/home/nodes': 'devices.html', '/home/georegion': 'geo-region.html' },
  dashboard: 'dashboard.html',
};
const shellFor = (url: string, cookies = {}, mode: 'standard' | 'customer' = 'standard') =>
  staticShellFor(url, cookies, mode, manifest);

describe('staticShellFor (ADR 35)', () => {
  it('gives a browser without the session markers the sign-in page on every signed-in path', () => {
    for (const url of ['/', '/login', '/LOGIN/', '/home', '/home/nodes', '/home/Georegion?x=1']) {
      expect(shellFor(url), url).toBe('shells/login.html');
    }
    expect(shellFor('/home/nodes', {}, 'customer')).toBe('shells/login-customer.html');
    expect(shellFor('/login', { [MARKER_COOKIES.userName]: '' })).toBe('shells/login.html');
  });

  it("gives a signed-in browser the frame of the screens that have one, whatever the path's case", () => {
    for (const url of ['/home/nodes', '/home/nodes/', '/HOME/Nodes', '/home/nodes?status=true']) {
      expect(shellFor(url, signedIn), url).toBe('shells/devices.html');
    }
    expect(shellFor('/home/Georegion', signedIn)).toBe('shells/geo-region.html');
    for (const url of ['/', '/login', '/home/groups', '/home/nodes/extra', '/toString']) {
      expect(shellFor(url, signedIn), url).toBeNull();
    }
  });

  it('gives /home the dashboard frame only when the role marker names a dashboard role', () => {
    const withRoles = (roles: string) => ({ ...signedIn, [MARKER_COOKIES.userRole]: roles });
    expect(shellFor('/home/', withRoles('admin'))).toBe('shells/dashboard.html');
    expect(shellFor('/HOME', withRoles('user,service_engineer_role'))).toBe(
      'shells/dashboard.html',
    );
    // Users without a dashboard role are sent on to the Devices list: no shell fits.
    expect(shellFor('/home', withRoles('user'))).toBeNull();
    expect(shellFor('/home', withRoles('not-a-role'))).toBeNull();
    expect(shellFor('/home', signedIn)).toBeNull();
  });

  it('has no shell for public pages other than sign-in', () => {
    for (const url of ['/sign-up', '/forgot-password', '/privacy', '/homework']) {
      expect(shellFor(url), url).toBeNull();
    }
  });
});

describe('readShellManifest', () => {
  let dist: string | undefined;
  afterEach(() => {
    if (dist) fs.rmSync(dist, { recursive: true, force: true });
  });

  function distWith(files: Record<string, string>): string {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetdeck-shells-'));
    fs.mkdirSync(path.join(dist, 'shells'));
    for (const [name, body] of Object.entries(files)) {
      fs.writeFileSync(path.join(dist, 'shells', name), body);
    }
    return dist;
  }

  it('reads a manifest whose every file is there', () => {
    const dir = distWith({
      'manifest.json': JSON.stringify(manifest),
      'login.html': '',
      'login-customer.html': '',
      'devices.html': '',
      'geo-region.html': '',
      'dashboard.html': '',
    });
    expect(readShellManifest(dir)).toEqual(manifest);
  });

  it('refuses a missing manifest, a missing file and a name that leaves the shells folder', () => {
    expect(readShellManifest(distWith({}))).toBeNull();
    expect(
      readShellManifest(distWith({ 'manifest.json': JSON.stringify(manifest), 'login.html': '' })),
    ).toBeNull();
    const escaping = { ...manifest, signedIn: { '/home/nodes': '../index.html' } };
    expect(
      readShellManifest(
        distWith({
          'manifest.json': JSON.stringify(escaping),
          'login.html': '',
          'login-customer.html': '',
        }),
      ),
    ).toBeNull();
    expect(readShellManifest(distWith({ 'manifest.json': 'not json' }))).toBeNull();
  });
});
