import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  generateMosquittoAuth,
  hashMosquittoPassword,
  renderMosquittoAclFile,
  renderMosquittoConf,
  renderMosquittoPasswordFile,
  verifyMosquittoPassword,
} from './mosquitto-config.js';

const MOSQUITTO_PASSWD = '/usr/bin/mosquitto_passwd';

describe('Mosquitto password and ACL files', () => {
  it('hashes in mosquitto_passwd’s $7$ format (PBKDF2-SHA512, 101 rounds, 12-byte salt)', () => {
    const hash = hashMosquittoPassword('s3cret');
    expect(hash).toMatch(/^\$7\$101\$[A-Za-z0-9+/]{16}\$[A-Za-z0-9+/]{86}==$/);
    expect(verifyMosquittoPassword(hash, 's3cret')).toBe(true);
    expect(verifyMosquittoPassword(hash, 's3cret!')).toBe(false);
    expect(hashMosquittoPassword('s3cret')).not.toBe(hash);
    expect(verifyMosquittoPassword('$6$abc$def', 's3cret')).toBe(false);
  });

  it('matches a known mosquitto_passwd hash', () => {
    // Written by mosquitto_passwd 2.0.11 for user node1, password "secret".
    const known =
      '$7$101$YyjTykRJadT1PpdQ$5ez0fbeS57ymmkv0pyikPz/RxTQktCeMteZZVuwJYI5aXh+ZMYop0ehjM5dI/avAKLuHr3JnnzARiH4+ScXp5Q==';
    expect(verifyMosquittoPassword(known, 'secret')).toBe(true);
    expect(hashMosquittoPassword('secret', Buffer.from('YyjTykRJadT1PpdQ', 'base64'))).toBe(known);
  });

  // Cross-checked against the real tool wherever it is installed.
  if (fs.existsSync(MOSQUITTO_PASSWD)) {
    it('reads what the installed mosquitto_passwd writes', () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetdeck-passwd-'));
      try {
        const file = path.join(dir, 'passwd');
        execFileSync(MOSQUITTO_PASSWD, ['-c', '-b', file, 'A0A0A0000001', 'pa55-word']);
        const [user, hash] = fs.readFileSync(file, 'utf8').trim().split(':');
        expect(user).toBe('A0A0A0000001');
        expect(verifyMosquittoPassword(hash ?? '', 'pa55-word')).toBe(true);
        expect(verifyMosquittoPassword(hash ?? '', 'pa55-wort')).toBe(false);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });
  }

  it('writes one line per user and refuses names that would break the files', () => {
    const file = renderMosquittoPasswordFile([
      { username: 'fleetdeck', hash: hashMosquittoPassword('x') },
      { username: 'A0A0A0000001', hash: hashMosquittoPassword('y') },
    ]);
    expect(file.split('\n')).toHaveLength(3);
    expect(file).toMatch(/^fleetdeck:\$7\$/);
    for (const username of ['a:b', 'a b', 'node/+', '', '#']) {
      expect(() => renderMosquittoPasswordFile([{ username, hash: '$7$1$a$b' }])).toThrow();
    }
    expect(() =>
      renderMosquittoPasswordFile([
        { username: 'x', hash: '$7$1$a$b' },
        { username: 'x', hash: '$7$1$a$b' },
      ]),
    ).toThrow();
  });

  it('gives Fleetdeck every topic and each node only its own', () => {
    const acl = renderMosquittoAclFile(['fleetdeck']).split('\n');
    expect(acl).toEqual(
      expect.arrayContaining([
        'user fleetdeck',
        'topic readwrite #',
        'topic readwrite $aws/#',
        'pattern readwrite node/%u/#',
        'pattern write $aws/rules/+/node/%u/#',
      ]),
    );
    // Patterns come after every user block, so they apply to all users.
    expect(acl.indexOf('pattern readwrite node/%u/#')).toBeGreaterThan(
      acl.indexOf('topic readwrite $aws/#'),
    );
  });

  it('generates both files from clear node credentials and refuses bad node ids', () => {
    const files = generateMosquittoAuth({
      nodes: [{ nodeId: 'A0A0A0000001', password: 'pa' }],
      gateways: [{ username: 'fleetdeck', password: 'pf' }],
    });
    const lines = files.passwordFile.trim().split('\n');
    expect(lines.map((line) => line.split(':')[0])).toEqual(['fleetdeck', 'A0A0A0000001']);
    expect(verifyMosquittoPassword(lines[1]?.split(':')[1] ?? '', 'pa')).toBe(true);
    expect(files.aclFile).toContain('user fleetdeck');
    expect(() =>
      generateMosquittoAuth({ nodes: [{ nodeId: 'a/b', password: 'x' }], gateways: [] }),
    ).toThrow();
    expect(() =>
      generateMosquittoAuth({
        nodes: [{ nodeId: 'fleetdeck', password: 'x' }],
        gateways: [{ username: 'fleetdeck', password: 'y' }],
      }),
    ).toThrow();
  });

  it('configures the broker without anonymous access and with the client id forced to the user', () => {
    const conf = renderMosquittoConf({
      port: 8883,
      host: '127.0.0.1',
      passwordFilePath: '/etc/fleetdeck/passwd',
      aclFilePath: '/etc/fleetdeck/acl',
    }).split('\n');
    expect(conf).toEqual(
      expect.arrayContaining([
        'allow_anonymous false',
        'password_file /etc/fleetdeck/passwd',
        'acl_file /etc/fleetdeck/acl',
        'listener 8883 127.0.0.1',
        'use_username_as_clientid true',
        // A burst to the gateway's one subscription is queued, not dropped.
        'max_inflight_messages 1000',
        'max_queued_messages 1000000',
      ]),
    );
    expect(conf.indexOf('use_username_as_clientid true')).toBeGreaterThan(
      conf.indexOf('listener 8883 127.0.0.1'),
    );
  });
});
