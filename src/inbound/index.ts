// The Inbound context's public face: the listener and received mail.
// What other contexts may import (.dependency-cruiser.cjs); inside inbound/, import files directly.
export { InboundAttachmentEntity } from './entities/inbound-attachment.entity';
export { InboundMailEntity } from './entities/inbound-mail.entity';
export { InboundSmtpModule } from './inbound-smtp.module';
export { InboundModule } from './inbound.module';
