import type { NodeInfo } from '@fleetdeck/contract';
import { describe, expect, it, vi } from 'vitest';
import {
  RepeatedCursorError,
  downloadNodesCsv,
  nodeCsvFileName,
  type CsvProgress,
  type NodeListPage,
} from './csv-download';

function node(id: string, name = id): NodeInfo {
  return {
    node_id: id,
    name,
    type: 'Air Conditioner',
    model: 'AC-1',
    fw_version: '2.0',
    tags: ['location:Delhi', 'esp.serial_num:S-' + id],
    node_status: 'offline',
    status: { connectivity: { connected: false, timestamp: 5 } },
    registration_timestamp: 1,
    is_claimed: false,
  };
}

/** A fake server holding `ids`, paged `size` at a time, cursors being the next page's first id. */
function pagedServer(ids: string[], size: number) {
  const calls: (string | undefined)[] = [];
  const fetchPage = vi.fn((startId: string | undefined): Promise<NodeListPage> => {
    calls.push(startId);
    const from = startId === undefined ? 0 : ids.indexOf(startId);
    const slice = ids.slice(from, from + size);
    const next = ids[from + size];
    return Promise.resolve({
      node_info: slice.map((id) => node(id)),
      total: ids.length,
      ...(next !== undefined ? { next_id: next } : {}),
    });
  });
  return { fetchPage, calls };
}

const ids = (count: number) =>
  Array.from({ length: count }, (_, i) => `node-${String(i).padStart(3, '0')}`);

const text = (parts: string[]) => parts.join('');

describe('downloadNodesCsv', () => {
  it('follows next_id until the last page and writes every node once, in order', async () => {
    const all = ids(250);
    const server = pagedServer(all, 100);
    const progress: CsvProgress[] = [];
    const csv = await downloadNodesCsv(server.fetchPage, {
      signal: new AbortController().signal,
      onProgress: (p) => progress.push(p),
    });

    expect(server.calls).toEqual([undefined, 'node-100', 'node-200']);
    expect(csv.count).toBe(250);
    const lines = text(csv.parts).split('\r\n');
    expect(lines[0]).toBe(
      '\uFEFFNode Device Id,Status,Location,Serial no.,Version,Type,Model,Name',
    );
    expect(lines.slice(1, -1).map((line) => line.split(',')[0])).toEqual(all);
    expect(lines.at(-1)).toBe('');
    expect(progress).toEqual([
      { done: 100, total: 250 },
      { done: 200, total: 250 },
      { done: 250, total: 250 },
    ]);
  });

  it('makes one call for a fleet that fits on one page', async () => {
    const server = pagedServer(ids(3), 100);
    const csv = await downloadNodesCsv(server.fetchPage, { signal: new AbortController().signal });
    expect(server.fetchPage).toHaveBeenCalledTimes(1);
    expect(csv.count).toBe(3);
  });

  it('writes only the header for an empty fleet', async () => {
    const server = pagedServer([], 100);
    const csv = await downloadNodesCsv(server.fetchPage, { signal: new AbortController().signal });
    expect(csv.count).toBe(0);
    expect(text(csv.parts)).toBe(
      '\uFEFFNode Device Id,Status,Location,Serial no.,Version,Type,Model,Name\r\n',
    );
  });

  it('stops between pages when cancelled and asks for no further page', async () => {
    const server = pagedServer(ids(500), 100);
    const controller = new AbortController();
    const run = downloadNodesCsv(server.fetchPage, {
      signal: controller.signal,
      onProgress: ({ done }) => {
        if (done === 200) controller.abort();
      },
    });
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    expect(server.fetchPage).toHaveBeenCalledTimes(2);
  });

  it('passes the signal to each request so the one in flight is cancelled too', async () => {
    const controller = new AbortController();
    const fetchPage = vi.fn(
      (_start: string | undefined, signal: AbortSignal) =>
        new Promise<NodeListPage>((_resolve, reject) => {
          signal.addEventListener('abort', () => reject(signal.reason as Error));
        }),
    );
    const run = downloadNodesCsv(fetchPage, { signal: controller.signal });
    controller.abort();
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('refuses a server that repeats a cursor instead of looping for ever', async () => {
    const fetchPage = vi.fn(() =>
      Promise.resolve({ node_info: [node('a')], total: 9, next_id: 'same' } as NodeListPage),
    );
    await expect(
      downloadNodesCsv(fetchPage, { signal: new AbortController().signal }),
    ).rejects.toBeInstanceOf(RepeatedCursorError);
    expect(fetchPage).toHaveBeenCalledTimes(2);
  });

  it('passes the failure of a page on to the caller', async () => {
    const fetchPage = vi.fn(() => Promise.reject(new Error('boom')));
    await expect(
      downloadNodesCsv(fetchPage, { signal: new AbortController().signal }),
    ).rejects.toThrow('boom');
  });

  it('never reports more done than total when nodes arrive while downloading', async () => {
    let call = 0;
    const fetchPage = vi.fn(() => {
      call += 1;
      return Promise.resolve<NodeListPage>(
        call === 1
          ? { node_info: [node('a'), node('b')], total: 2, next_id: 'c' }
          : { node_info: [node('c')], total: 2 },
      );
    });
    const progress: CsvProgress[] = [];
    await downloadNodesCsv(fetchPage, {
      signal: new AbortController().signal,
      onProgress: (p) => progress.push(p),
    });
    expect(progress.at(-1)).toEqual({ done: 3, total: 3 });
  });
});

describe('nodeCsvFileName', () => {
  it('names the file after the day', () => {
    expect(nodeCsvFileName(new Date('2025-03-14T10:00:00Z'))).toBe(
      'fleetdeck-devices-2025-03-14.csv',
    );
  });
});
