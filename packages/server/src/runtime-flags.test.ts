import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SERVER_NODE_FLAGS, missingNodeFlags } from './runtime-flags.js';

describe('server Node flags', () => {
  it('names every flag the process was started without', () => {
    expect(missingNodeFlags([], undefined)).toEqual([...SERVER_NODE_FLAGS]);
    expect(missingNodeFlags([...SERVER_NODE_FLAGS], undefined)).toEqual([]);
    expect(missingNodeFlags(['--enable-source-maps'], SERVER_NODE_FLAGS.join(' '))).toEqual([]);
  });

  it('counts a flag given with another value, or with underscores, as the operator’s choice', () => {
    expect(missingNodeFlags(['--max-semi-space-size=64'], undefined)).toEqual([
      '--min-semi-space-size=32',
    ]);
    expect(missingNodeFlags([], '--max_semi_space_size=8 --min_semi_space_size=8')).toEqual([]);
    expect(missingNodeFlags(['--max-old-space-size=4096'], '')).toEqual([...SERVER_NODE_FLAGS]);
  });

  it('are the flags of the server package’s own start script', () => {
    const manifest = JSON.parse(
      fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
    ) as { scripts: { start: string } };
    expect(manifest.scripts.start).toBe(`node ${SERVER_NODE_FLAGS.join(' ')} dist/main.js`);
  });
});
