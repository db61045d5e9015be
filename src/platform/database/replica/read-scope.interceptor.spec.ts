import type { CallHandler, ExecutionContext } from '@nestjs/common';
import { lastValueFrom, Observable, Subject, throwError } from 'rxjs';
import { automock } from '../../../../test/support/automock';
import { ReadReplica } from './read-replica';
import { ReadScopeInterceptor } from './read-scope.interceptor';
import { Reads } from './reads';
import { RecentWrites } from './recent-writes';

const OWNER = 'user-1';

describe('ReadScopeInterceptor', () => {
  let reads: jest.Mocked<Reads>;
  let recentWrites: jest.Mocked<RecentWrites>;
  let replica: jest.Mocked<ReadReplica>;
  let sut: ReadScopeInterceptor;

  const contextOf = (method: string, user?: { id: string }) =>
    ({
      getType: () => 'http',
      switchToHttp: () => ({ getRequest: () => ({ method, user }) }),
    }) as unknown as ExecutionContext;
  const handler = (answer: Observable<unknown>): CallHandler => ({ handle: () => answer });

  beforeEach(() => {
    reads = automock<Reads>('reads');
    recentWrites = automock<RecentWrites>('recentWrites');
    replica = automock<ReadReplica>('replica');
    Object.defineProperty(replica, 'configured', { value: true, writable: true });
    recentWrites.note.mockResolvedValue(undefined);
    reads.scope.mockImplementation((_owner, work) => work());
    sut = new ReadScopeInterceptor(reads, recentWrites, replica);
  });

  it("handles a caller's GET as reads of its owner", async () => {
    const answer = new Subject<string>();
    const handled = lastValueFrom(sut.intercept(contextOf('GET', { id: OWNER }), handler(answer)));
    answer.next('page');
    answer.complete();

    expect(await handled).toBe('page');
    expect(reads.scope).toHaveBeenCalledWith(OWNER, expect.any(Function));
    expect(recentWrites.note).not.toHaveBeenCalled();
  });

  it('marks a change once it has been handled, before its answer goes on', async () => {
    const answer = new Subject<string>();
    const handled = lastValueFrom(sut.intercept(contextOf('POST', { id: OWNER }), handler(answer)));
    await Promise.resolve();
    // A slow body or a long batch: nothing is marked while the change is still being made.
    expect(recentWrites.note).not.toHaveBeenCalled();

    let marked!: () => void;
    recentWrites.note.mockReturnValue(new Promise<void>((resolve) => (marked = resolve)));
    let answered = false;
    void handled.then(() => (answered = true));
    answer.next('created');
    answer.complete();
    await Promise.resolve();
    expect(recentWrites.note).toHaveBeenCalledWith(OWNER);
    expect(answered).toBe(false);

    marked();
    expect(await handled).toBe('created');
  });

  it('marks a refused change too, and answers with its refusal', async () => {
    const refusal = new Error('422');

    await expect(
      lastValueFrom(sut.intercept(contextOf('DELETE', { id: OWNER }), handler(throwError(() => refusal)))),
    ).rejects.toBe(refusal);
    expect(recentWrites.note).toHaveBeenCalledWith(OWNER);
  });

  it('answers a change whose mark failed', async () => {
    recentWrites.note.mockRejectedValue(new Error('connection terminated'));
    const answer = new Subject<string>();
    const handled = lastValueFrom(sut.intercept(contextOf('POST', { id: OWNER }), handler(answer)));
    answer.next('created');
    answer.complete();

    expect(await handled).toBe('created');
  });

  it('leaves public routes, and everything without a replica, as they are', async () => {
    const answer = new Subject<string>();
    const handled = lastValueFrom(sut.intercept(contextOf('POST'), handler(answer)));
    answer.next('ok');
    answer.complete();
    expect(await handled).toBe('ok');

    Object.assign(replica, { configured: false });
    const direct = handler(new Subject());
    expect(sut.intercept(contextOf('GET', { id: OWNER }), direct)).toBe(direct.handle());
    expect(reads.scope).not.toHaveBeenCalled();
    expect(recentWrites.note).not.toHaveBeenCalled();
  });
});
