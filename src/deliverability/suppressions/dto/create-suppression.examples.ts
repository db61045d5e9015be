import type { ExamplesObject } from '@nestjs/swagger';

/** POST /user/suppressions as Swagger UI offers it: each example is accepted as given (test/docs-examples). */
export const CREATE_SUPPRESSION_EXAMPLES: ExamplesObject = {
  all: {
    summary: 'Stop all mail to an address',
    value: { email: 'ada@example.com' },
  },
  bulk: {
    summary: 'Stop only bulk mail (messages with a bulkSendingId): password resets still go',
    value: { email: 'grace@example.com', scope: 'bulk' },
  },
};
