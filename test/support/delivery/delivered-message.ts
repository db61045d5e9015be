/** A recipient of a Message as GET /user/messages/{id} shows it (docs/api.md), with its route. */
export type DeliveredRecipient = {
  email: string;
  status: string;
  detail: string | null;
  route: { host: string; tls: boolean } | null;
};

/** The parts of a Message the direct-delivery suites read, its history included (`includeStatusHistory`). */
export type DeliveredMessage = {
  id: string;
  status: string;
  nextAttemptAt: string | null;
  recipients: DeliveredRecipient[];
  statusHistory: { status: string; detail: string | null; recipient?: string; at: string }[];
};
