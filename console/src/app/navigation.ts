/**
 * The console's pages in the order the navigation shows them: what was sent and received first,
 * then the settings; Webhooks beside them, as Postmark's and Resend's dashboards place it; the
 * team (Members, the Audit log) last.
 */
export const NAVIGATION = [
  { path: '/overview', label: 'Overview' },
  { path: '/messages', label: 'Messages' },
  { path: '/inbound', label: 'Inbound' },
  { path: '/domains', label: 'Domains' },
  { path: '/suppressions', label: 'Suppressions' },
  { path: '/webhooks', label: 'Webhooks' },
  { path: '/api-keys', label: 'API keys' },
  { path: '/members', label: 'Members' },
  { path: '/audit-log', label: 'Audit log' },
] as const;

/** Where sign-in lands: how the sending is going, as Postmark's and Resend's dashboards open. */
export const HOME = '/overview';
