import type { NodeInfo } from '@fleetdeck/contract';
import { describe, expect, it } from 'vitest';
import { CSV_BOM, csvField, csvRecord, nodeCsvHeader, nodeCsvRecord } from './csv';

function node(overrides: Partial<NodeInfo> = {}): NodeInfo {
  return {
    node_id: 'node-001',
    name: 'Kitchen fridge',
    type: 'Refrigerator',
    model: 'RF-200',
    fw_version: '1.4.2',
    tags: ['location:Pune', 'esp.serial_num:SN123'],
    node_status: 'online',
    status: { connectivity: { connected: true, timestamp: 1 } },
    registration_timestamp: 1_700_000_000,
    is_claimed: false,
    ...overrides,
  };
}

describe('csvField', () => {
  it('leaves plain text alone', () => {
    expect(csvField('Pune')).toBe('Pune');
    expect(csvField('')).toBe('');
  });

  it('quotes a field with a comma', () => {
    expect(csvField('Pune, Maharashtra')).toBe('"Pune, Maharashtra"');
  });

  it('doubles quotes inside a quoted field', () => {
    expect(csvField('the "big" one')).toBe('"the ""big"" one"');
  });

  it('quotes fields with line breaks, CR and LF alike', () => {
    expect(csvField('line 1\nline 2')).toBe('"line 1\nline 2"');
    expect(csvField('line 1\r\nline 2')).toBe('"line 1\r\nline 2"');
  });

  it('keeps unicode as it is', () => {
    expect(csvField('München – 冷蔵庫 😀')).toBe('München – 冷蔵庫 😀');
  });

  it('defuses text a spreadsheet would run as a formula', () => {
    expect(csvField('=HYPERLINK("http://x")')).toBe('"\'=HYPERLINK(""http://x"")"');
    expect(csvField('+1')).toBe("'+1");
    expect(csvField('-2')).toBe("'-2");
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
  });
});

describe('csvRecord', () => {
  it('joins with commas and ends with CRLF', () => {
    expect(csvRecord(['a', 'b,c', 'd'])).toBe('a,"b,c",d\r\n');
  });
});

describe('the node report', () => {
  it('starts with a BOM and the header in the spec column order', () => {
    const header = nodeCsvHeader();
    expect(header.startsWith(CSV_BOM)).toBe(true);
    expect(header.slice(1)).toBe(
      'Node Device Id,Status,Location,Serial no.,Version,Type,Model,Name\r\n',
    );
  });

  it('writes a node with its status word, location and serial', () => {
    expect(nodeCsvRecord(node())).toBe(
      'node-001,Online,Pune,SN123,1.4.2,Refrigerator,RF-200,Kitchen fridge\r\n',
    );
  });

  it('writes Offline and Unknown for disconnected and never-connected nodes', () => {
    expect(nodeCsvRecord(node({ status: { connectivity: { connected: false } } }))).toContain(
      ',Offline,',
    );
    expect(nodeCsvRecord(node({ status: { connectivity: {} } }))).toContain(',Unknown,');
  });

  it('quotes a name with commas, quotes and a line break', () => {
    expect(nodeCsvRecord(node({ name: 'Lab "A", bench\n2' }))).toBe(
      'node-001,Online,Pune,SN123,1.4.2,Refrigerator,RF-200,"Lab ""A"", bench\n2"\r\n',
    );
  });

  it('keeps unicode locations and names as UTF-8 text', () => {
    const record = nodeCsvRecord(
      node({ tags: ['location:Bengaluru ಬೆಂಗಳೂರು'], name: 'Kühlschrank' }),
    );
    expect(record).toContain('Bengaluru ಬೆಂಗಳೂರು');
    expect(record).toContain('Kühlschrank');
    const bytes = new TextEncoder().encode(nodeCsvHeader() + record);
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  });
});
