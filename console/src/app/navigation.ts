/**
 * The console's pages in the order the navigation shows them. Webhooks (§11 endpoints) take
 * their place here once the console has their page.
 */
export const NAVIGATION = [
  { path: '/overview', label: 'Overview' },
  { path: '/messages', label: 'Messages' },
  { path: '/inbound', label: 'Inbound' },
  { path: '/domains', label: 'Domains' },
  { path: '/suppressions', label: 'Suppressions' },
  { path: '/api-keys', label: 'API keys' },
] as const;

/** Where sign-in lands: how the sending is going, as Postmark's and Resend's dashboards open. */
export const HOME = '/overview';
