import { lazy, Suspense } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import { Empty, Loading } from '../components/states';
import { HOME } from './navigation';
import { PageBoundary } from './page-boundary';

// Each page is its own chunk, fetched when first shown: the first load carries the shell and one
// page, not every page's code (uPlot's chart only with the Overview).
const OverviewPage = lazy(() =>
  import('../features/overview/overview-page').then((m) => ({ default: m.OverviewPage })),
);
const MessagesPage = lazy(() =>
  import('../features/messages/messages-page').then((m) => ({ default: m.MessagesPage })),
);
const MessagePage = lazy(() => import('../features/message/message-page').then((m) => ({ default: m.MessagePage })));
const InboundPage = lazy(() => import('../features/inbound/inbound-page').then((m) => ({ default: m.InboundPage })));
const InboundMailPage = lazy(() =>
  import('../features/inbound/inbound-mail-page').then((m) => ({ default: m.InboundMailPage })),
);
const DomainsPage = lazy(() => import('../features/domains/domains-page').then((m) => ({ default: m.DomainsPage })));
const ApiKeysPage = lazy(() => import('../features/api-keys/api-keys-page').then((m) => ({ default: m.ApiKeysPage })));
const SuppressionsPage = lazy(() =>
  import('../features/suppressions/suppressions-page').then((m) => ({ default: m.SuppressionsPage })),
);
const WebhooksPage = lazy(() =>
  import('../features/webhooks/webhooks-page').then((m) => ({ default: m.WebhooksPage })),
);
const MembersPage = lazy(() => import('../features/members/members-page').then((m) => ({ default: m.MembersPage })));
const AuditLogPage = lazy(() =>
  import('../features/audit-log/audit-log-page').then((m) => ({ default: m.AuditLogPage })),
);

export function AppRoutes() {
  const { pathname } = useLocation();
  return (
    // The navigation stays while a page's code arrives; the state shows only past a short delay
    // (styles/components.css), so a cached chunk does not flash it.
    <PageBoundary key={pathname}>
      <Suspense fallback={<Loading what="the page" delayed />}>
        <Routes>
          <Route index element={<Navigate to={HOME} replace />} />
          <Route path="overview" element={<OverviewPage />} />
          <Route path="messages" element={<MessagesPage />} />
          <Route path="messages/:id" element={<MessagePage />} />
          <Route path="inbound" element={<InboundPage />} />
          <Route path="inbound/:id" element={<InboundMailPage />} />
          <Route path="domains" element={<DomainsPage />} />
          <Route path="api-keys" element={<ApiKeysPage />} />
          <Route path="suppressions" element={<SuppressionsPage />} />
          <Route path="webhooks" element={<WebhooksPage />} />
          <Route path="members" element={<MembersPage />} />
          <Route path="audit-log" element={<AuditLogPage />} />
          <Route path="*" element={<Empty title="No such page">Pick one from the navigation.</Empty>} />
        </Routes>
      </Suspense>
    </PageBoundary>
  );
}
