import { compile } from 'html-to-text';
import { Tokenizer } from 'htmlparser2';

// Compiled once: compiling the selector tree on each call was a tenth of a worker's CPU. An inline
// image (`cid:`, docs/api.md#sending) is shown by its alt text alone: a reader of the plain text cannot follow
// a link to a part of the mail; an image without alt text leaves nothing.
const formatted = compile({
  wordwrap: 78,
  selectors: [
    { selector: 'img', options: { pathRewrite: (path: string) => (/^cid:/i.test(path.trim()) ? '' : path) } },
  ],
});

// html-to-text walks the tree recursively: about 4,000 nested elements overflow the stack, and
// its time grows faster than the depth (2.4 s at 100,000). Real mail nests a few dozen deep.
const MAX_FORMATTED_DEPTH = 256;

const SKIPPED = new Set(['script', 'style', 'head', 'title', 'template']);
const BREAKING = new Set([
  'br',
  'p',
  'div',
  'li',
  'tr',
  'table',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'blockquote',
  'pre',
  'hr',
  'section',
  'article',
]);
// Elements that never hold others, or whose end tag may be left out: they add no depth.
const NOT_NESTING = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'source',
  'track',
  'wbr',
  'p',
  'li',
  'td',
  'th',
  'tr',
  'dt',
  'dd',
  'option',
  'optgroup',
  'thead',
  'tbody',
  'tfoot',
  'colgroup',
  'rt',
  'rp',
]);

/**
 * The plain-text alternative of an HTML body: html-to-text's layout for mail as people write it,
 * and for markup nested deeper than it can walk, the text alone, so that no accepted message
 * fails at delivery.
 */
export function textAlternative(html: string): string {
  if (scan(html).maxDepth <= MAX_FORMATTED_DEPTH) {
    try {
      return formatted(html);
    } catch (error) {
      // A nesting the count below did not foresee: the bare text is still right.
      if (!(error instanceof RangeError)) throw error;
    }
  }
  return scan(html, { keepText: true }).text;
}

/**
 * The nesting depth (and the bare text when asked), from htmlparser2's tokenizer alone: its
 * Parser keeps open elements with Array.unshift, quadratic in the depth (120 s for 5 MiB of
 * nested divs). The depth is counted as the Parser would build it or deeper: `/>` does not close
 * an HTML element, and an end tag closes only an element that is open.
 */
function scan(html: string, { keepText = false } = {}): { maxDepth: number; text: string } {
  const parts: string[] = [];
  const open = new Map<string, number>();
  let depth = 0;
  let maxDepth = 0;
  let tag = '';
  const opened = (name: string) => {
    if (BREAKING.has(name)) parts.push('\n');
    if (NOT_NESTING.has(name)) return;
    open.set(name, (open.get(name) ?? 0) + 1);
    maxDepth = Math.max(maxDepth, ++depth);
  };
  const closed = (name: string) => {
    if (BREAKING.has(name)) parts.push('\n');
    const count = open.get(name) ?? 0;
    if (count === 0) return;
    open.set(name, count - 1);
    depth--;
  };
  const inSkipped = () => [...SKIPPED].some((name) => (open.get(name) ?? 0) > 0);
  const text = (value: string) => void (keepText && !inSkipped() && parts.push(value));
  const ignore = () => undefined;
  const tokenizer = new Tokenizer(
    { decodeEntities: true },
    {
      onopentagname: (start, end) => (tag = html.slice(start, end).toLowerCase()),
      onopentagend: () => opened(tag),
      onselfclosingtag: () => opened(tag),
      onclosetag: (start, end) => closed(html.slice(start, end).toLowerCase()),
      ontext: (start, end) => text(html.slice(start, end)),
      ontextentity: (codepoint) => text(String.fromCodePoint(codepoint)),
      onattribdata: ignore,
      onattribentity: ignore,
      onattribend: ignore,
      onattribname: ignore,
      oncdata: ignore,
      oncomment: ignore,
      ondeclaration: ignore,
      onend: ignore,
      onprocessinginstruction: ignore,
    },
  );
  tokenizer.write(html);
  tokenizer.end();
  if (!keepText) return { maxDepth, text: '' };
  // Split on single white-space characters: a quantified regex over a 5 MiB run of spaces can
  // exhaust V8's regex stack.
  const lines = parts
    .join('')
    .split('\n')
    .map((line) => line.split(/\s/).filter(Boolean).join(' '));
  return { maxDepth, text: lines.filter(Boolean).join('\n') };
}
