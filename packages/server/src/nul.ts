/**
 * Whether a parsed value (a query, a JSON body, a device payload) holds a string with the NUL
 * character anywhere, keys included. No text Fleetdeck keeps may hold one: PostgreSQL refuses it
 * in text columns. Walks with its own stack, so a deeply nested value cannot overflow the call
 * stack.
 */
export function containsNul(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === 'string') {
      if (next.includes('\u0000')) return true;
    } else if (Array.isArray(next)) {
      for (const item of next) pending.push(item);
    } else if (next !== null && typeof next === 'object' && !Buffer.isBuffer(next)) {
      for (const [key, item] of Object.entries(next)) {
        if (key.includes('\u0000')) return true;
        pending.push(item);
      }
    }
  }
  return false;
}
