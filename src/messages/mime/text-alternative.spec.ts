import { textAlternative } from './text-alternative';

const MAX_HTML_BYTES = 5 * 1024 * 1024;

describe(textAlternative.name, () => {
  it('lays out mail as people write it with html-to-text (links, paragraphs, entities)', () => {
    expect(textAlternative('<p>Hello&nbsp;Ada,</p><p>see <a href="https://example.com/i">the invoice</a></p>')).toBe(
      'Hello\u00a0Ada,\n\nsee the invoice [https://example.com/i]',
    );
  });

  it('shows an inline image (cid:) by its alt text alone: a reader of the plain text cannot follow a cid: link', () => {
    const text = textAlternative(
      '<p><img src="cid:logo@example.com" alt="Example Ltd"></p><p>Hello Ada</p><img src="cid:sig">',
    );

    expect(text).toBe('Example Ltd\n\nHello Ada');
  });

  it('keeps the text of markup nested deeper than html-to-text can walk, without script or style', () => {
    const nested =
      '<div>'.repeat(5000) + 'deep &amp; down<script>x()</script>' + '</div>'.repeat(5000) + '<p>after</p>';
    expect(textAlternative(nested)).toBe('deep & down\nafter');
  });

  it.each([
    ['self-closed divs, which HTML keeps open', '<div/>'.repeat(6000) + 'x'],
    ['end tags of elements never opened', '<div></span>'.repeat(6000) + 'x'],
    ['void and optional-end elements between them', '<div><br><p>a<li>b'.repeat(3000) + 'x'],
  ])('does not fail on %s', (_, html) => {
    expect(textAlternative(html).endsWith('x')).toBe(true);
  });

  it('reads a body of the largest accepted size nested all the way down, in linear time', () => {
    const opening = '<div>'.repeat(Math.floor((MAX_HTML_BYTES - 20) / 11));
    const html = `${opening}text${'</div>'.repeat(opening.length / 5)}`.slice(0, MAX_HTML_BYTES);
    expect(Buffer.byteLength(html)).toBeLessThanOrEqual(MAX_HTML_BYTES);
    const started = process.hrtime.bigint();
    expect(textAlternative(html)).toBe('text');
    // A generous bound that only a super-linear walk would cross (about 1 s here).
    expect(Number(process.hrtime.bigint() - started) / 1e9).toBeLessThan(20);
  });

  it('collapses white space of the largest accepted size in a body too deep to lay out', () => {
    const html = `${'<div>'.repeat(300)}a${' \t'.repeat((MAX_HTML_BYTES - 1600) / 2)}b`;
    expect(textAlternative(html)).toBe('a b');
  });

  it('lays out a body of the largest accepted size made of shallow paragraphs', () => {
    const paragraph = '<p>Line &amp; more</p>';
    const html = paragraph.repeat(Math.floor(MAX_HTML_BYTES / paragraph.length));
    const text = textAlternative(html);
    expect(text.split('\n\n')).toHaveLength(html.length / paragraph.length);
    expect(text.startsWith('Line & more\n\nLine & more')).toBe(true);
  });
});
