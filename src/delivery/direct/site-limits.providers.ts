import { Provider } from '@nestjs/common';
import { AppConfig } from '../../platform/config/app-config';
import { Metrics } from '../../platform/metrics/metrics';
import { DeliverySitesJanitor } from './delivery-sites.janitor';
import { PostgresSiteLimits } from './postgres-site-limits';
import { SiteLimits } from './site-limits';
import { SiteLimitsRepository } from './site-limits.repository';
import { DEFAULT_SITE_SHAPING, SiteShapingOptions } from './site-shaping';

/** The shaping of DELIVERY_SITE_CONNECTIONS; pauses, quiet periods and leases keep their defaults. */
export function siteShapingOf(config: AppConfig): SiteShapingOptions {
  const { perSite, byHostSuffix } = config.delivery.siteConnections;
  return { ...DEFAULT_SITE_SHAPING, defaultConnections: perSite, byHostSuffix };
}

/**
 * What direct delivery's shaping needs in the delivery module (docs/delivery-and-deliverability.md#direct-delivery):
 * the SiteLimits port, kept in PostgreSQL, and the janitor of its tables.
 */
export const SITE_LIMITS_PROVIDERS: Provider[] = [
  SiteLimitsRepository,
  {
    provide: SiteLimits,
    inject: [SiteLimitsRepository, Metrics, AppConfig],
    useFactory: (repository: SiteLimitsRepository, metrics: Metrics, config: AppConfig) =>
      new PostgresSiteLimits(repository, metrics, siteShapingOf(config)),
  },
  {
    provide: DeliverySitesJanitor,
    inject: [SiteLimitsRepository, AppConfig],
    useFactory: (repository: SiteLimitsRepository, config: AppConfig) =>
      new DeliverySitesJanitor(repository, config, siteShapingOf(config).quietSeconds),
  },
];
