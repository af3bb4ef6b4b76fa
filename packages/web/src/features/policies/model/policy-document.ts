/**
 * What the policy pages render of a stored document. Plain text is split into paragraphs at blank
 * lines; HTML goes into a sandboxed frame (no scripts, an opaque origin, links open a new tab)
 * whose `srcdoc` this builds, with a readable default style the document's own CSS may override.
 */
export function textParagraphs(content: string): string[] {
  return content
    .replace(/\r\n?/g, '\n')
    .split(/\n(?:[ \t]*\n)+/)
    .map((paragraph) => paragraph.replace(/^(?:[ \t]*\n)+|\s+$/g, ''))
    .filter((paragraph) => paragraph.trim() !== '');
}

const FRAME_STYLE = [
  'html{color-scheme:light}',
  'body{margin:0;padding:12px 16px 20px;font:15px/1.6 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#212529;overflow-wrap:anywhere}',
  'h1,h2,h3,h4{line-height:1.3;margin:1.2em 0 .5em}',
  'h1:first-child,h2:first-child,h3:first-child,p:first-child{margin-top:0}',
  'a{color:#1971c2}',
  'img,table{max-width:100%}',
].join('');

/** The frame document around stored HTML: the default style and links that open a new tab. */
export function policyFrameDocument(html: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><base target="_blank"><style>${FRAME_STYLE}</style></head><body>${html}</body></html>`;
}

/**
 * The frame's sandbox: nothing allowed but opening links in a new, ordinary tab. Without
 * allow-scripts and allow-same-origin the document can neither run code nor reach the app.
 */
export const POLICY_FRAME_SANDBOX = 'allow-popups allow-popups-to-escape-sandbox';
