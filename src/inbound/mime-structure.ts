import type { Readable, Transform } from 'node:stream';
import type { InboundMailLimits } from './inbound-mail-limits';

// mailsplit: the MIME splitter mailparser is built on (same maintainer); no typings ship with it.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- untyped CommonJS module; the cast names the one constructor used
const { Splitter } = require('mailsplit') as {
  Splitter: new (options: { maxHeadSize: number; maxChildNodes: number; ignoreEmbedded: boolean }) => Transform;
};

interface SplitNode {
  parentNode?: SplitNode | false;
}

/**
 * Walks a mail's MIME tree with mailsplit (the splitter under mailparser), streaming, before
 * mailparser reads it: the reason a mail is past a structural limit (header block, part count,
 * nesting), or undefined. Linear in the mail's size, holding one line at a time, so a hostile
 * tree is refused before anything builds it in memory.
 */
export async function structureRefusal(mail: Readable, limits: InboundMailLimits): Promise<string | undefined> {
  const splitter = new Splitter({
    maxHeadSize: limits.headerBytes,
    maxChildNodes: limits.mimeParts,
    ignoreEmbedded: true,
  });
  let reason: string | undefined;
  let parts = 0;
  mail.on('error', (error) => splitter.destroy(error));
  mail.pipe(splitter);
  try {
    // A part comes out as its MimeNode itself (type 'node'); its body as 'data' and 'body' chunks.
    for await (const data of splitter as AsyncIterable<SplitNode & { type: string }>) {
      if (data.type !== 'node' || reason) continue;
      parts++;
      if (depthOf(data) > limits.mimeDepth) {
        reason = `MIME parts nested more than ${limits.mimeDepth} deep`;
        mail.unpipe(splitter);
        mail.destroy();
        splitter.end();
      }
    }
  } catch (error) {
    const { code, message } = error as { code?: string; message: string };
    if (code !== 'EMAXLEN') throw error;
    return /header/i.test(message)
      ? `a header block over ${limits.headerBytes} bytes`
      : `more than ${limits.mimeParts} MIME parts`;
  }
  // mailsplit counts the part that passes its limit before refusing it; the count here says the same.
  return reason ?? (parts > limits.mimeParts ? `more than ${limits.mimeParts} MIME parts` : undefined);
}

function depthOf(node: SplitNode): number {
  let depth = 1;
  for (let parent = node.parentNode; parent; parent = parent.parentNode) depth++;
  return depth;
}
