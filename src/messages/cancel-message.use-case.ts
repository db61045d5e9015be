import { Injectable } from '@nestjs/common';
import { AuditLog } from '../auth';
import type { AuthUser } from '../auth';
import { NotFoundError, StateConflictError } from '../platform/problem/problem.errors';
import { isUuid } from '../platform/uuid';
import { Database } from '../platform/database/database';
import { MessageResponse } from './dto/message.response';
import { MessageLifecycle } from './lifecycle/message-lifecycle.repository';
import { CANCELABLE_STATUSES } from './lifecycle/status-groups';
import { permits } from './lifecycle/transitions';
import { MessagesService } from './messages.service';
import { canceledFates } from './recipient-fates';

const CANCELABLE = CANCELABLE_STATUSES.join(', ').replace(/, (?=[^,]*$)/, ' or ');

/**
 * POST /user/messages/{id}/cancel (docs/delivery-and-deliverability.md#statuses, docs/api.md#routes): scheduled, queued or deferred → canceled, its
 * recipients not yet accepted canceled with it (those the relay took stay sent). The
 * delivery job stays on the queue; the claim's guard refuses a canceled message, so whichever
 * worker takes the job, even one that fetched it already, completes it without sending.
 */
@Injectable()
export class CancelMessageUseCase {
  constructor(
    private readonly database: Database,
    private readonly lifecycle: MessageLifecycle,
    private readonly messages: MessagesService,
    private readonly audit: AuditLog,
  ) {}

  async execute(user: AuthUser, id: string): Promise<MessageResponse> {
    const userId = user.id;
    // A malformed id names no message: the same 404 as an unknown or foreign one (as GET).
    if (!isUuid(id)) throw new NotFoundError('That message');
    await this.database.transaction(async (manager) => {
      // Locked, so that the status that explains a refusal is the one the change would have met:
      // a claim under way either committed before (sending: 409) or waits and then finds it canceled.
      const state = await this.lifecycle.lockState(manager, id, userId);
      if (!state) throw new NotFoundError(`Message ${id}`);
      if (!permits('cancel', state, 'canceled')) {
        throw new StateConflictError(
          `Message ${id} is ${state.status}; only a message that is ${CANCELABLE} can be canceled.`,
        );
      }
      await this.lifecycle.cancel(manager, [
        { messageId: id, fates: canceledFates(await this.lifecycle.fatesOf(manager, id)) },
      ]);
      await this.audit.record(manager, {
        by: user,
        action: 'message.canceled',
        target: { type: 'message', id },
        detail: { from: state.status },
      });
    });
    return this.messages.get(userId, id);
  }
}
