/**
 * Whether a parsed value (a query, a JSON body, a device payload) holds a string with the NUL
 * character anywhere, keys included. No text Fleetdeck keeps may hold one: PostgreSQL refuses it
 * in text columns. Walks with its own stack, so a deeply nested value cannot overflow the call
 * stack, and only into arrays and plain objects (what parsing makes): a request body that is a
 * stream or a buffer, with its circular references, is not data to look into.
 */
export function containsNul(value: unknown): boolean {
  return someText(value, (text) => text.includes('\u0000'));
}

/**
 * Whether a parsed value holds a string, keys included, that is not well-formed UTF-16: a lone
 * surrogate (`"\ud800"` in JSON), which no database can store as sent (both write U+FFFD).
 */
export function containsLoneSurrogate(value: unknown): boolean {
  return someText(value, (text) => LONE_SURROGATE.test(text));
}

/** A high surrogate not followed by a low one, or a low one without a high one before it. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether any string of a parsed value (keys included) passes `test`; see `containsNul`. */
function someText(value: unknown, test: (text: string) => boolean): boolean {
  const pending: unknown[] = [value];
  const seen = new Set<object>();
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === 'object' && next !== null) {
      if (seen.has(next)) continue;
      seen.add(next);
    }
    if (typeof next === 'string') {
      if (test(next)) return true;
    } else if (Array.isArray(next)) {
      for (const item of next) pending.push(item);
    } else if (isPlainObject(next)) {
      for (const [key, item] of Object.entries(next)) {
        if (test(key)) return true;
        pending.push(item);
      }
    }
  }
  return false;
}

/**
 * Made by `JSON.parse` or a query-string parser: its prototype is `Object.prototype`, null, or (as
 * Fastify's query-string parser makes them, for speed) an empty object without a prototype.
 */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const prototype = Object.getPrototypeOf(value) as object | null;
  return (
    prototype === null ||
    prototype === Object.prototype ||
    Object.getPrototypeOf(prototype) === null
  );
}
