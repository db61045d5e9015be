import type { RecipientFate } from '../../api/messages';

export interface Route {
  host: string;
  tls: boolean;
}

/** One recipient domain of a message: the servers its recipients' transactions reached, and where they stand. */
export interface DomainRoutes {
  /** Lower-cased: mail servers treat the domain case-insensitively. */
  domain: string;
  /** Each distinct server reached, the most recent first; empty while none was (pending, or refused before any answered). */
  routes: Route[];
  recipients: number;
  /** Status → how many, in the order the statuses first appear among the recipients. */
  statuses: [status: string, count: number][];
}

/** The part after the last `@` (a quoted local part may hold one). */
const domainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1).toLowerCase();

/**
 * The recipients grouped by domain, in the order the domains first appear, each with the servers its
 * recipients reached (recipients[].route: the last server reached for each, docs/api.md#reading-back).
 */
export function domainRoutes(recipients: readonly RecipientFate[]): DomainRoutes[] {
  const byDomain = new Map<string, RecipientFate[]>();
  for (const recipient of recipients) {
    const domain = domainOf(recipient.email);
    byDomain.set(domain, [...(byDomain.get(domain) ?? []), recipient]);
  }
  return [...byDomain].map(([domain, fates]) => {
    const reached = fates
      .filter((fate): fate is RecipientFate & { route: Route } => fate.route != null)
      .sort((a, b) => b.at.localeCompare(a.at));
    const routes = new Map<string, Route>();
    for (const { route } of reached) {
      const key = `${route.host.toLowerCase()} ${route.tls}`;
      if (!routes.has(key)) routes.set(key, route);
    }
    const statuses = new Map<string, number>();
    for (const fate of fates) statuses.set(fate.status, (statuses.get(fate.status) ?? 0) + 1);
    return { domain, routes: [...routes.values()], recipients: fates.length, statuses: [...statuses] };
  });
}

/** Whether any recipient's transaction reached a server that was reported (direct delivery reports each; relays and the outbox none). */
export const anyRouted = (recipients: readonly RecipientFate[]) => recipients.some((recipient) => recipient.route);
