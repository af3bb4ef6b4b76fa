import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { maskSecret, SecretBox } from './secret-box.js';

describe('SecretBox', () => {
  const box = SecretBox.fromKey(randomBytes(32));

  it('round-trips and never stores the plaintext', () => {
    const sealed = box.seal('client-secret-123', 'identity:Google');
    expect(sealed).not.toContain('client-secret-123');
    expect(box.open(sealed, 'identity:Google')).toBe('client-secret-123');
  });

  it('gives a different sealed value each time', () => {
    expect(box.seal('same')).not.toBe(box.seal('same'));
  });

  it('refuses a tampered value, another context and another key', () => {
    const sealed = box.seal('secret', 'a');
    const parts = sealed.split('.');
    const body = Buffer.from(parts[3]!, 'base64url');
    body[0] = body[0]! ^ 1;
    parts[3] = body.toString('base64url');
    expect(() => box.open(parts.join('.'), 'a')).toThrow();
    expect(() => box.open(sealed, 'b')).toThrow();
    expect(() => SecretBox.fromKey(randomBytes(32)).open(sealed, 'a')).toThrow();
    expect(() => box.open('plain text')).toThrow('Not a sealed secret');
  });

  it('masks all but the last four characters', () => {
    expect(maskSecret('abcdefgh')).toBe('••••efgh');
    expect(maskSecret('abc')).toBe('••••');
  });
});
