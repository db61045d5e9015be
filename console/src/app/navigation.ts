/**
 * The console's pages in the order the navigation shows them. Webhooks sits after Suppressions,
 * beside the other settings, as Postmark's and Resend's dashboards place it. Inbound (§13) takes
 * its place here once its API exists.
 */
export const NAVIGATION = [
  { path: '/overview', label: 'Overview' },
  { path: '/messages', label: 'Messages' },
  { path: '/domains', label: 'Domains' },
  { path: '/suppressions', label: 'Suppressions' },
  { path: '/webhooks', label: 'Webhooks' },
  { path: '/api-keys', label: 'API keys' },
] as const;

/** Where sign-in lands: how the sending is going, as Postmark's and Resend's dashboards open. */
export const HOME = '/overview';
