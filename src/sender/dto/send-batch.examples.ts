import type { ExamplesObject } from '@nestjs/swagger';

/** The request examples of POST /sender/send/batch, accepted as given (test/docs-examples.e2e-spec.ts). */
export const SEND_BATCH_EXAMPLES: ExamplesObject = {
  two: {
    summary: 'Two messages, stored together or not at all',
    value: {
      messages: [
        {
          subject: 'Welcome',
          html: '<p>Hello Ada, welcome aboard.</p>',
          to: ['ada@example.com'],
          sender: 'billing@example.com',
        },
        {
          subject: 'Welcome',
          html: '<p>Hello Grace, welcome aboard.</p>',
          to: ['grace@example.com'],
          sender: 'billing@example.com',
          priority: 'high',
        },
      ],
    },
  },
};
