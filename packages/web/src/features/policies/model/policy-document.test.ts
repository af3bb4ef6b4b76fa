import { describe, expect, it } from 'vitest';
import { POLICY_FRAME_SANDBOX, policyFrameDocument, textParagraphs } from './policy-document';

describe('policy documents', () => {
  it('splits plain text into paragraphs at blank lines and keeps single line breaks', () => {
    expect(
      textParagraphs('We keep little.\nOnly what we need.\r\n\r\n\n  \nYou may ask.\n'),
    ).toEqual(['We keep little.\nOnly what we need.', 'You may ask.']);
    expect(textParagraphs('  \n\n')).toEqual([]);
  });

  it('frames stored HTML with links that open a new tab and never lets scripts run', () => {
    const frame = policyFrameDocument('<h2>Privacy</h2><a href="https://example.com">more</a>');
    expect(frame).toContain('<base target="_blank">');
    expect(frame).toContain('<body><h2>Privacy</h2><a href="https://example.com">more</a></body>');
    expect(POLICY_FRAME_SANDBOX.split(' ')).not.toContain('allow-scripts');
    expect(POLICY_FRAME_SANDBOX.split(' ')).not.toContain('allow-same-origin');
  });
});
