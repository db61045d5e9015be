import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request } from 'express';
import { catchError, from, map, mergeMap, Observable, throwError } from 'rxjs';
import { ReadReplica } from './read-replica';
import { Reads } from './reads';
import { RecentWrites } from './recent-writes';

const READS = new Set(['GET', 'HEAD']);

/**
 * Tells the replica's routing who reads and who writes (docs/scaling.md#read-replicas): a caller's
 * GET is handled as reads of its owner, which may go to the replica; any other request by a
 * caller marks its owner as having written when it has been handled (refused ones too: a mark
 * costs only 5 s of primary reads), so the reads that follow its answer see it. The caller is whoever the global
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
    // Marked once the change is made, before its answer goes out: a slow body or a long batch
    // does not spend the 5 s before the write exists. A failed mark fails no change: only reads
    // through another process could then miss it, and only while the replica lags.
    const mark = () => from(this.recentWrites.note(ownerId).catch(() => undefined));
    return next.handle().pipe(
      mergeMap((answer: unknown) => mark().pipe(map(() => answer))),
      catchError((error: unknown) => mark().pipe(mergeMap(() => throwError(() => error)))),
    );
  }
}
