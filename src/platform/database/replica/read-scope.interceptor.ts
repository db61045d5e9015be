import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request } from 'express';
import { from, mergeMap, Observable } from 'rxjs';
import { ReadReplica } from './read-replica';
import { Reads } from './reads';
import { RecentWrites } from './recent-writes';

const READS = new Set(['GET', 'HEAD']);

/**
 * Tells the replica's routing who reads and who writes (docs/scaling.md#read-replicas): a caller's
 * GET is handled as reads of its owner, which may go to the replica; any other request by a
 * caller marks its owner as writing before it is handled (a write that then fails costs only
 * 5 s of primary reads), so the reads that follow it see it. The caller is whoever the global
 * guard named (`request.user`); a public route names none and changes nothing here.
 */
@Injectable()
export class ReadScopeInterceptor implements NestInterceptor {
  constructor(
    private readonly reads: Reads,
    private readonly recentWrites: RecentWrites,
    private readonly replica: ReadReplica,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    // Without a replica (or in a worker) every read is the primary's: nothing to tell, no cost per request.
    if (!this.replica.configured || context.getType() !== 'http') return next.handle();
    const request = context.switchToHttp().getRequest<Request & { user?: { id?: unknown } }>();
    const ownerId = request.user?.id;
    if (typeof ownerId !== 'string') return next.handle();
    // handle() binds the async context it is called in: the scope reaches the handler's reads.
    if (READS.has(request.method)) return this.reads.scope(ownerId, () => next.handle());
    return from(this.recentWrites.note(ownerId)).pipe(mergeMap(() => next.handle()));
  }
}
