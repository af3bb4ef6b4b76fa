import { describe, expect, it } from 'vitest';
import { CONNECTIVITY_COLOR, connectivityOf } from './node-status';

describe('connectivityOf', () => {
  it('shows a connected node green', () => {
    expect(connectivityOf({ status: { connectivity: { connected: true } } })).toBe('connected');
    expect(CONNECTIVITY_COLOR.connected).toContain('green');
  });

  it('shows a disconnected node red', () => {
    expect(connectivityOf({ status: { connectivity: { connected: false } } })).toBe('disconnected');
    expect(CONNECTIVITY_COLOR.disconnected).toContain('red');
  });

  it('shows a node that never connected grey', () => {
    expect(connectivityOf({ status: { connectivity: {} } })).toBe('unknown');
    expect(CONNECTIVITY_COLOR.unknown).toContain('gray');
  });

  it('shows a node without any status grey', () => {
    expect(connectivityOf({})).toBe('unknown');
    expect(connectivityOf({ status: {} })).toBe('unknown');
  });
});
