import { describe, expect, it } from 'vitest';
import {
  TEMPLATE_TEXT_MAX_LENGTH,
  TemplateBodySchema,
  placeholderName,
  PLACEHOLDER_PATTERN,
  unknownPlaceholders,
} from './templates.js';

/** Milliseconds `run` takes. */
function timed(run: () => void): number {
  const start = Date.now();
  run();
  return Date.now() - start;
}

describe('template placeholders', () => {
  it('finds names with or without spaces inside the braces', () => {
    const names = [
      ...'{{link}} {{ code }} {{\tfirst_name\n}} {{}}'.matchAll(PLACEHOLDER_PATTERN),
    ].map((match) => placeholderName(match[1]));
    expect(names).toEqual(['link', 'code', 'first_name', '']);
  });

  it('names the unknown placeholders, trimmed', () => {
    expect(unknownPlaceholders('{{ link }} {{ nope }} {{two words}}')).toEqual([
      'nope',
      'two words',
    ]);
  });

  it('reads an unclosed {{ followed by spaces in linear time (ASVS 1.3.12, no ReDoS)', () => {
    // 2,000 spaces took the former pattern ~5 s (cubic); the body's cap, 20,000, took hours.
    expect(timed(() => unknownPlaceholders(`{{${' '.repeat(2_000)}`))).toBeLessThan(250);
    const longest = `{{link}} {{${' '.repeat(TEMPLATE_TEXT_MAX_LENGTH - 12)}`;
    expect(
      timed(() => {
        TemplateBodySchema.safeParse({
          template_type: 'INVITE_MESSAGE',
          message_subject: `{{${' '.repeat(190)}`,
          message_text: longest,
        });
      }),
    ).toBeLessThan(250);
  });
});
