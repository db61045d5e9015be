// The Deliverability context's public face: domains and DKIM, suppressions, unsubscribe, report reading, VERP.
// What other contexts may import (.dependency-cruiser.cjs); inside deliverability/, import files directly.
export { ApplyReportsUseCase, ReportBeforeAcceptanceError } from './bounces/apply-reports.use-case';
export type { ReportTarget } from './bounces/apply-reports.use-case';
export { BouncesModule } from './bounces/bounces.module';
export type { DeliveryReport } from './bounces/delivery-report';
export { AppliedReportEntity } from './bounces/entities/applied-report.entity';
export { readReports } from './bounces/report-reader';
export { classify } from './bounces/reports/classify';
export { VerpAddresses } from './bounces/verp-addresses';
export { DomainsModule } from './domains/domains.module';
export { SendingDomainEntity } from './domains/entities/sending-domain.entity';
export { ReceivingDomains } from './domains/receiving-domains';
export { type DkimSigningKey, type SealedSigningKey, SigningKeys } from './domains/signing-keys';
export { SuppressionEntity } from './suppressions/entities/suppression.entity';
export { type SuppressedRecipients, SuppressionList } from './suppressions/suppression-list.repository';
export { SuppressionsModule } from './suppressions/suppressions.module';
export { SuppressionsRepository } from './suppressions/suppressions.repository';
export { UnsubscribeHeaders } from './unsubscribe/unsubscribe-headers';
export { UnsubscribeModule } from './unsubscribe/unsubscribe.module';
export { UnsubscribeService } from './unsubscribe/unsubscribe.service';
