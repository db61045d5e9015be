import { createHash } from 'node:crypto';

const BASE_STYLE = 'body{font:1rem/1.5 system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem}';

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * Small HTML pages a browser lands on outside the console (unsubscribing, a refused OIDC sign-in):
 * no script at all, one style allowed by its hash alone, never cached, never framed, and no
 * Referer (their URLs hold tokens or codes). `formAction` is where their forms may post.
 */
export class PlainPages {
  private readonly style: string;
  readonly headers: Record<string, string>;

  constructor({ extraStyle = '', formAction }: { extraStyle?: string; formAction: "'self'" | "'none'" }) {
    this.style = BASE_STYLE + extraStyle;
    this.headers = {
      'Cache-Control': 'no-store',
      'Content-Security-Policy':
        `default-src 'none'; style-src 'sha256-${createHash('sha256').update(this.style).digest('base64')}'; ` +
        `form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`,
      'X-Frame-Options': 'DENY',
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
    };
  }

  /** The page titled `title` (escaped here) around `body`, HTML its caller escaped. */
  page(title: string, body: string): string {
    return (
      `<!doctype html>\n<html lang="en"><head><meta charset="utf-8">` +
      `<meta name="viewport" content="width=device-width, initial-scale=1">` +
      `<title>${escapeHtml(title)}</title><style>${this.style}</style></head>` +
      `<body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>\n`
    );
  }
}
