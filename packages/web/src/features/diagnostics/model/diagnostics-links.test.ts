import { describe, expect, it } from 'vitest';
import { diagnosticsLinksOn } from './diagnostics-links';

describe('diagnosticsLinksOn', () => {
  it('shows the links when the diagnostics option is on, whatever the cookie says', () => {
    expect(diagnosticsLinksOn(true, null)).toBe(true);
    expect(diagnosticsLinksOn(true, 'false')).toBe(true);
    expect(diagnosticsLinksOn(true, 'true')).toBe(true);
  });

  it('shows the links with the option off only when the Diag cookie is exactly true', () => {
    expect(diagnosticsLinksOn(false, 'true')).toBe(true);
    expect(diagnosticsLinksOn(false, null)).toBe(false);
    expect(diagnosticsLinksOn(false, 'false')).toBe(false);
    expect(diagnosticsLinksOn(false, 'TRUE')).toBe(false);
    expect(diagnosticsLinksOn(false, '1')).toBe(false);
  });

  it('lets only the cookie decide until the deployment info has arrived', () => {
    expect(diagnosticsLinksOn(undefined, null)).toBe(false);
    expect(diagnosticsLinksOn(undefined, 'true')).toBe(true);
  });
});
