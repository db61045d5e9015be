/** Who made a change (docs/teams.md#audit-log): a member (signed in to the console), an API key, or a JWT. */
export const AUDIT_ACTOR_TYPES = ['member', 'api_key', 'jwt'] as const;
export type AuditActorType = (typeof AUDIT_ACTOR_TYPES)[number];

/**
 * Every change the audit log records, one name each (docs/teams.md#audit-log): the object, a dot,
 * what became of it. A fixed list, so that the filter can refuse a name that will never match.
 */
export const AUDIT_ACTIONS = [
  'api_key.created',
  'api_key.deleted',
  'domain.created',
  'domain.verified',
  'domain.pending',
  'domain.receiving_set',
  'domain.deleted',
  'webhook_endpoint.created',
  'webhook_endpoint.updated',
  'webhook_endpoint.secret_rotated',
  'webhook_endpoint.deleted',
  'suppression.created',
  'suppression.deleted',
  'message.canceled',
  'member.invited',
  'member.joined',
  'member.role_changed',
  'member.removed',
  'member.signed_in',
  'member.sign_in_failed',
  'member.password_reset',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** What a change was made to: the object's kind (the action's first part) and its id. */
export type AuditTargetType = AuditAction extends `${infer T}.${string}` ? T : never;
