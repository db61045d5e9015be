import type { Role } from '../../api/caller';

/** The roles, most powerful first, with what each may do (docs/teams.md#members-and-roles). */
export const ROLES: { role: Role; meaning: string }[] = [
  { role: 'owner', meaning: 'everything, members and owners too' },
  { role: 'admin', meaning: 'everything but changing owners' },
  { role: 'developer', meaning: 'send, read and manage API keys' },
  { role: 'viewer', meaning: 'read only' },
];

/** Whether the signed-in manager may give or take away `role`: an admin never touches an owner. */
export function mayHandle(manager: Role | undefined, role: Role): boolean {
  return manager !== 'admin' || role !== 'owner';
}
