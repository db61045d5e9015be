/**
 * The console's pages in the order the navigation shows them. Overview (§12 stats), Webhooks
 * (§11 endpoints) and Inbound (§13) take their places here once their APIs exist.
 */
export const NAVIGATION = [
  { path: '/messages', label: 'Messages' },
  { path: '/domains', label: 'Domains' },
  { path: '/suppressions', label: 'Suppressions' },
  { path: '/api-keys', label: 'API keys' },
] as const;

export const HOME = '/messages';
