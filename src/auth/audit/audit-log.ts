import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import type { AuthUser } from '../auth-user';
import type { AuditAction, AuditActorType, AuditTargetType } from './audit-actions';
import { AuditLogRepository } from './audit-log.repository';

/** Who made a change, as an entry names them. */
export interface AuditActor {
  type: AuditActorType;
  id: string;
  label: string;
}

/** A change to record: by whom (the caller the guard named), what, to what, and a few facts of it. */
export interface AuditEntry {
  by: AuthUser;
  action: AuditAction;
  target: { type: AuditTargetType; id: string };
  /** Small: names and flags that say what changed, never a secret. */
  detail?: Record<string, unknown>;
}

/**
 * The actor a caller is (docs/teams.md#audit-log): a member by its id and address, an API key by its id and prefix (its id again for
 * a key made before prefixes were kept), a JWT by its `sub`.
 */
export function actorOf(user: AuthUser): AuditActor {
  if (user.member) return { type: 'member', id: user.member.id, label: user.member.email };
  if (user.apiKey) return { type: 'api_key', id: user.apiKey.id, label: user.apiKey.prefix ?? user.apiKey.id };
  return { type: 'jwt', id: user.id, label: user.id };
}

/**
 * The audit log's writer: every change to an account records itself here, through the manager of
 * the transaction that makes it, so that the entry commits with the change or not at all.
 */
@Injectable()
export class AuditLog {
  constructor(private readonly entries: AuditLogRepository) {}

  async record(manager: EntityManager, { by, action, target, detail = {} }: AuditEntry): Promise<void> {
    const actor = actorOf(by);
    await this.entries.add(manager, {
      id: uuidv7(),
      userId: by.id,
      actorType: actor.type,
      actorId: actor.id,
      actorLabel: actor.label,
      action,
      targetType: target.type,
      targetId: target.id,
      clientAddress: by.clientAddress,
      detail,
    });
  }
}
