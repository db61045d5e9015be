import type { ExamplesObject } from '@nestjs/swagger';

/**
 * The request examples of POST /sender/send, which Swagger UI's "Try it out" sends as they are:
 * each must be accepted (test/docs-examples.e2e-spec.ts). No webhook (its receiver would be
 * somebody else's server) and no attachmentIds (they name files the caller stored first).
 */
export const SEND_MESSAGE_EXAMPLES: ExamplesObject = {
  minimal: {
    summary: 'The four required fields',
    value: { subject: 'Welcome', html: '<p>Hello Ada, welcome aboard.</p>', to: ['ada@example.com'], sender: 'billing@example.com' },
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
      attachments: [{ fileName: 'invoice.txt', content: 'SW52b2ljZSAxMjM0LCB0b3RhbCA0Mi4wMCBFVVIK', contentType: 'text/plain' }],
    },
  },
};
