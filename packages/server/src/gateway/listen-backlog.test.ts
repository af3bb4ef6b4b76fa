import { describe, expect, it } from 'vitest';
import { MQTT_LISTEN_BACKLOG, listenBacklogCap } from './embedded-broker.js';

describe('listenBacklogCap', () => {
  it('reads net.core.somaxconn', () => {
    const files: string[] = [];
    const cap = listenBacklogCap((file) => {
      files.push(file);
      return '4096\n';
    });
    expect(cap).toBe(4096);
    expect(files).toEqual(['/proc/sys/net/core/somaxconn']);
  });

  it('is undefined where the file is missing or not a number', () => {
    expect(
      listenBacklogCap(() => {
        throw Object.assign(new Error('no such file'), { code: 'ENOENT' });
      }),
    ).toBeUndefined();
    expect(listenBacklogCap(() => 'many')).toBeUndefined();
    expect(listenBacklogCap(() => '0')).toBeUndefined();
  });

  it('asks the kernel for more than its default cap', () => {
    expect(MQTT_LISTEN_BACKLOG).toBeGreaterThan(4096);
  });
});
