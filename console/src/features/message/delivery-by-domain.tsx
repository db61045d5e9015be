import type { RecipientFate } from '../../api/messages';
import { HostName } from '../../components/host-name';
import { Cell, Table } from '../../components/table';
import { domainRoutes, type DomainRoutes, type Route } from './domain-routes';

/**
 * Per recipient domain, which server answered and whether TLS protected the session
 * (docs/delivery-and-deliverability.md#direct-delivery), with how its recipients stand. The caller
 * shows it only when some recipient has a route.
 */
export function DeliveryByDomain({ recipients }: { recipients: readonly RecipientFate[] }) {
  return (
    <section aria-labelledby="delivery-by-domain-title">
      <h3 id="delivery-by-domain-title">Delivery by domain</h3>
      <Table columns={['Domain', 'Answered by', 'TLS', 'Recipients']}>
        {domainRoutes(recipients).map((row) => (
          <tr key={row.domain}>
            <Cell label="Domain">
              <HostName name={row.domain} />
            </Cell>
            <Cell label="Answered by">
              {row.routes.length === 0 ? (
                <span className="muted">
                  —<span className="visually-hidden"> no server reached yet</span>
                </span>
              ) : (
                <span className="route-hosts">
                  {row.routes.map((route, index) => (
                    <HostName key={index} name={route.host} />
                  ))}
                </span>
              )}
            </Cell>
            <Cell label="TLS" wrap>
              <TlsState routes={row.routes} />
            </Cell>
            <Cell label="Recipients">{statusSummary(row)}</Cell>
          </tr>
        ))}
      </Table>
    </section>
  );
}

/** In words, so that it reads without its colour; a session in clear is a mild warning, not an error. */
function TlsState({ routes }: { routes: Route[] }) {
  if (routes.length === 0) return <span className="muted">—</span>;
  const clear = routes.filter((route) => !route.tls);
  if (clear.length === 0) return <span className="tls tls-yes">Yes</span>;
  if (clear.length === routes.length) return <span className="tls tls-no">No, not encrypted</span>;
  return <span className="tls tls-no">Partly: not encrypted to {clear.map((route) => route.host).join(', ')}</span>;
}

/** `3 sent`, or `3: 2 sent, 1 deferred`. */
function statusSummary({ recipients, statuses }: DomainRoutes): string {
  const words = statuses.map(([status, count]) => `${count} ${status.replace('_', ' ')}`).join(', ');
  return statuses.length === 1 ? words : `${recipients}: ${words}`;
}
