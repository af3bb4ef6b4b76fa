import { ParamsPayloadSchema } from '@fleetdeck/contract';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isParamsDocument } from './node-message-router.js';

const name = fc.oneof(
  fc.string({ maxLength: 130 }),
  fc.constantFrom('a'.repeat(128), 'b'.repeat(129)),
);

describe('isParamsDocument', () => {
  it('accepts exactly what ParamsPayloadSchema accepts unchanged', () => {
    const documents = fc.oneof(
      fc.dictionary(name, fc.dictionary(name, fc.jsonValue(), { maxKeys: 4 }), { maxKeys: 4 }),
      fc.dictionary(name, fc.jsonValue(), { maxKeys: 4 }),
      fc.jsonValue(),
    );
    fc.assert(
      fc.property(documents, (document) => {
        // Through JSON, as a payload arrives.
        const json: unknown = JSON.parse(JSON.stringify(document) ?? 'null');
        const parsed = ParamsPayloadSchema.safeParse(json);
        // The schema drops `__proto__` keys: such a document is the schema's to copy.
        const unchanged = parsed.success && JSON.stringify(parsed.data) === JSON.stringify(json);
        expect(isParamsDocument(json)).toBe(unchanged);
      }),
      { numRuns: 2_000 },
    );
  });

  it('refuses arrays, null, scalars, over-long names and __proto__ keys', () => {
    expect(isParamsDocument({ Light: { Power: true } })).toBe(true);
    expect(isParamsDocument({})).toBe(true);
    expect(isParamsDocument([])).toBe(false);
    expect(isParamsDocument(null)).toBe(false);
    expect(isParamsDocument({ Light: [1] })).toBe(false);
    expect(isParamsDocument({ Light: null })).toBe(false);
    expect(isParamsDocument({ ['x'.repeat(129)]: {} })).toBe(false);
    expect(isParamsDocument({ Light: { ['p'.repeat(129)]: 1 } })).toBe(false);
    expect(isParamsDocument(JSON.parse('{"__proto__":[]}'))).toBe(false);
    expect(isParamsDocument(JSON.parse('{"__proto__":{"a":1},"L":{"P":1}}'))).toBe(false);
    expect(isParamsDocument(JSON.parse('{"L":{"__proto__":1}}'))).toBe(false);
  });
});
