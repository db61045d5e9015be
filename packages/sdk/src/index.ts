export { Mailroom, type Caller, type MailroomOptions } from './client.js';
export { MailroomError, type FieldError, type Problem } from './errors.js';
export type { CallOptions } from './request.js';
export type * from './resources/api-keys.js';
export type * from './resources/attachments.js';
export type * from './resources/audit-log.js';
export type * from './resources/domains.js';
export type * from './resources/emails.js';
export type * from './resources/inbound.js';
export type * from './resources/members.js';
export type * from './resources/stats.js';
export type * from './resources/suppressions.js';
export type * from './resources/webhook-deliveries.js';
export type * from './resources/webhook-endpoints.js';
export {
  verifyWebhook,
  WebhookVerificationError,
  type VerifyOptions,
  type WebhookEvent,
  type WebhookHeaders,
} from './verify-webhook.js';
/**
 * The generated types of every path and schema, for what the client does not wrap (left out of
 * the reference, which documents the client; Swagger UI at /docs documents the API).
 */
export type { components, paths } from './generated/openapi.js';
