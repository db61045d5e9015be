import type { ExamplesObject } from '@nestjs/swagger';

/** The request examples of POST /sender/send/batch, accepted as given (test/medium/platform/docs-examples.e2e-spec.ts). */
export const SEND_BATCH_EXAMPLES: ExamplesObject = {
  two: {
    summary: 'Two messages, the second text-only, stored together or not at all',
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
          text: 'Hello Grace, welcome aboard.',
          to: ['grace@example.com'],
          sender: 'billing@example.com',
          priority: 'high',
        },
      ],
    },
  },
};
