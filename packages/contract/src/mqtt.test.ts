import { describe, expect, it } from 'vitest';
import { ConnectionPayloadSchema } from './mqtt.js';

describe('ConnectionPayloadSchema', () => {
  it('takes session and timestamp only as whole numbers a 64-bit column holds exactly', () => {
    const ok = (payload: object) => ConnectionPayloadSchema.safeParse(payload).success;
    expect(ok({ connected: true, session: 3, timestamp: 1_700_000_000_000 })).toBe(true);
    expect(ok({ connected: false, session: Number.MAX_SAFE_INTEGER })).toBe(true);
    expect(ok({ connected: true, timestamp: Number.MAX_SAFE_INTEGER })).toBe(true);
    // Before, these reached the ingest, and PostgreSQL refused the whole batch.
    expect(ok({ connected: true, session: 1e19 })).toBe(false);
    expect(ok({ connected: true, session: 1e300 })).toBe(false);
    expect(ok({ connected: true, timestamp: -1e300 })).toBe(false);
    expect(ok({ connected: true, timestamp: -1 })).toBe(false);
    expect(ok({ connected: true, session: 1.5 })).toBe(false);
  });
});
