import { Navigate, Route, Routes } from 'react-router';
import { ApiKeysPage } from '../features/api-keys/api-keys-page';
import { DomainsPage } from '../features/domains/domains-page';
import { InboundMailPage } from '../features/inbound/inbound-mail-page';
import { InboundPage } from '../features/inbound/inbound-page';
import { MessagePage } from '../features/message/message-page';
import { MessagesPage } from '../features/messages/messages-page';
import { OverviewPage } from '../features/overview/overview-page';
import { SuppressionsPage } from '../features/suppressions/suppressions-page';
import { WebhooksPage } from '../features/webhooks/webhooks-page';
import { Empty } from '../components/states';
import { HOME } from './navigation';

export function AppRoutes() {
  return (
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
      <Route path="*" element={<Empty title="No such page">Pick one from the navigation.</Empty>} />
    </Routes>
  );
}
