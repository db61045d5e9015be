// The Sender context's public face: the ways in (REST and SMTP submission), the intake and idempotency.
// What other contexts may import (.dependency-cruiser.cjs); inside sender/, import files directly.
export { MaxRecipientsRule } from './dto/max-recipients.rule';
// The one example of the OpenAPI document that moves with the date (src/openapi.cli.ts pins it for the SDK).
export { SCHEDULED_AT_EXAMPLE } from './dto/send-message.examples';
export { IdempotencyKeyEntity } from './idempotency/entities/idempotency-key.entity';
export { SenderModule } from './sender.module';
export { SubmissionModule } from './submission/submission.module';
export { SystemMailModule } from './system-mail/system-mail.module';
