import type { ExamplesObject } from '@nestjs/swagger';

/**
 * The request examples of POST /sender/send, which Swagger UI's "Try it out" sends as they are:
 * each must be accepted (test/medium/platform/docs-examples.e2e-spec.ts). No webhook (its receiver would be
 * somebody else's server) and no attachmentIds (they name files the caller stored first).
 */
/**
 * 09:00 UTC on the day after the documentation was built: a fixed date would leave the 30 days
 * ahead that scheduledAt allows, or fall into the past, where it means now.
 */
export const SCHEDULED_AT_EXAMPLE = new Date(Math.floor(Date.now() / 86_400_000 + 1) * 86_400_000 + 9 * 3_600_000)
  .toISOString()
  .replace('.000Z', 'Z');

export const SEND_MESSAGE_EXAMPLES: ExamplesObject = {
  minimal: {
    summary: 'The four fields a send needs: subject, html (or text), to and sender',
    value: {
      subject: 'Welcome',
      html: '<p>Hello Ada, welcome aboard.</p>',
      to: ['ada@example.com'],
      sender: 'billing@example.com',
    },
  },
  everything: {
    summary: 'With an inline attachment, a campaign id, your own data and a priority',
    value: {
      subject: 'Your invoice',
      html: '<p>Hello Ada, your invoice is attached.</p>',
      to: ['ada@example.com', 'accounts@example.com'],
      sender: 'billing@example.com',
      attachments: [{ fileName: 'invoice.txt', content: 'SW52b2ljZSAxMjM0LCB0b3RhbCA0Mi4wMCBFVVIK' }],
      bulkSendingId: 'march-invoices',
      contactId: 'contact-981',
      customPayload: { orderId: '1234' },
      priority: 'high',
    },
  },
  mailboxes: {
    summary: 'With display names, cc, bcc, Reply-To, a plain-text part, custom headers and a content type',
    value: {
      subject: 'Your invoice',
      html: '<p>Hello Ada, your invoice is attached.</p>',
      text: 'Hello Ada, your invoice is attached.',
      to: ['Ada Lovelace <ada@example.com>'],
      cc: ['"Accounts, Example Ltd" <accounts@example.com>'],
      bcc: ['archive@example.com'],
      replyTo: ['Billing Support <support@example.com>'],
      sender: 'Example Billing <billing@example.com>',
      headers: { 'X-Campaign': 'march-invoices' },
      attachments: [
        { fileName: 'invoice.txt', content: 'SW52b2ljZSAxMjM0LCB0b3RhbCA0Mi4wMCBFVVIK', contentType: 'text/plain' },
      ],
    },
  },
  textOnly: {
    summary: 'Text only: no html, so one text/plain part',
    value: {
      subject: 'Your code',
      text: 'Your sign-in code is 428 913. It expires in 10 minutes.',
      to: ['ada@example.com'],
      sender: 'security@example.com',
    },
  },
  inlineImage: {
    summary: 'An inline image, shown where the html says `cid:` and its contentId',
    value: {
      subject: 'Welcome',
      html: '<p><img src="cid:logo@example.com" alt="Example"></p><p>Hello Ada, welcome aboard.</p>',
      to: ['ada@example.com'],
      sender: 'billing@example.com',
      attachments: [
        {
          fileName: 'logo.png',
          // A 1×1 PNG.
          content: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
          contentType: 'image/png',
          contentId: 'logo@example.com',
        },
      ],
    },
  },
  scheduled: {
    summary: 'Sent tomorrow at 09:00 UTC; `scheduled` until then, and can be canceled',
    value: {
      subject: 'Your trial ends tomorrow',
      html: '<p>Hello Ada, your trial ends tomorrow.</p>',
      to: ['ada@example.com'],
      sender: 'billing@example.com',
      scheduledAt: SCHEDULED_AT_EXAMPLE,
    },
  },
};
