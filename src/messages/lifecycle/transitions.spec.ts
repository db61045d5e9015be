import { MESSAGE_STATUSES, MessageStatus } from '../message-status';
import {
  ACCEPTED_STATUS,
  countsAttempt,
  SCHEDULED_STATUS,
  Edge,
  fixedTarget,
  guardSql,
  permits,
  TRANSITIONS,
  TransitionName,
} from './transitions';

const edges = Object.values(TRANSITIONS).flat() as readonly Edge[];

describe('the transition table (docs/delivery-and-deliverability.md#statuses)', () => {
  it('starts every message in queued or scheduled, and reaches every status from there', () => {
    const reached = new Set<MessageStatus>([ACCEPTED_STATUS, SCHEDULED_STATUS]);
    for (let grew = true; grew;) {
      const size = reached.size;
      for (const edge of edges) if (reached.has(edge.from)) reached.add(edge.to);
      grew = reached.size > size;
    }
    expect([...reached].sort()).toEqual([...MESSAGE_STATUSES].sort());
  });

  it('lets nothing leave failed, and sent only on a report (bounced, complained)', () => {
    expect(edges.filter((edge) => edge.from === 'failed')).toEqual([]);
    expect(
      edges
        .filter((edge) => edge.from === 'sent')
        .map((edge) => edge.to)
        .sort(),
    ).toEqual(['bounced', 'complained']);
  });

  it('lets nothing leave complained, and bounced only to complained (docs/delivery-and-deliverability.md#statuses: later reports)', () => {
    expect(edges.filter((edge) => edge.from === 'complained')).toEqual([]);
    expect(edges.filter((edge) => edge.from === 'bounced')).toEqual([{ from: 'bounced', to: 'complained' }]);
  });

  it('never moves a message back to queued: only a scheduled one goes there, at its moment', () => {
    expect(edges.filter((edge) => edge.to === ACCEPTED_STATUS)).toEqual([
      { from: SCHEDULED_STATUS, to: ACCEPTED_STATUS },
    ]);
    expect(edges.filter((edge) => edge.to === SCHEDULED_STATUS)).toEqual([]);
  });

  it('ties every delivery change to an attempt', () => {
    const delivery = [...TRANSITIONS.claim, ...TRANSITIONS.suppress, ...TRANSITIONS.finish] as readonly Edge[];
    expect(delivery.filter((edge) => edge.attempt === undefined)).toEqual([]);
  });

  it('lets nothing leave canceled', () => {
    expect(edges.filter((edge) => edge.from === 'canceled')).toEqual([]);
  });

  it('lets nothing leave suppressed: removing the entry lets new mail through, not this one', () => {
    expect(edges.filter((edge) => edge.from === 'suppressed')).toEqual([]);
  });

  describe('due', () => {
    it('moves a scheduled message to queued, and nothing else', () => {
      for (const status of MESSAGE_STATUSES)
        expect(permits('due', { status, attempts: 0 }, 'queued')).toBe(status === 'scheduled');
    });

    it('leaves the attempt count to the claim that follows it', () => {
      expect(countsAttempt('due')).toBe(false);
      expect(guardSql('due')).toBe(`m.status = 'scheduled'`);
    });
  });

  describe('cancel', () => {
    it.each<[MessageStatus, boolean]>([
      ['scheduled', true],
      ['queued', true],
      ['deferred', true],
      // An attempt is under way, or over: the mail may already be with the server.
      ['sending', false],
      ['sent', false],
      ['failed', false],
      ['canceled', false],
    ])('cancels a message in %s: %s', (status, allowed) => {
      expect(permits('cancel', { status, attempts: 1 }, 'canceled')).toBe(allowed);
    });

    it('moves only to canceled, whatever the attempt', () => {
      expect(fixedTarget('cancel')).toBe('canceled');
      expect(countsAttempt('cancel')).toBe(false);
      expect(guardSql('cancel')).toBe(`m.status IN ('scheduled', 'queued', 'deferred')`);
    });
  });

  describe('claim', () => {
    it.each<[MessageStatus, number, number, boolean]>([
      ['queued', 0, 1, true],
      ['deferred', 1, 2, true],
      ['deferred', 3, 4, true],
      // A duplicate job of an attempt that already ran, or one from the future.
      ['deferred', 2, 2, false],
      ['queued', 0, 2, false],
      // Its job came back: the same attempt again.
      ['sending', 2, 2, true],
      ['sending', 2, 3, false],
      ['sending', 2, 1, false],
      ['sent', 1, 2, false],
      ['failed', 3, 4, false],
    ])('moves %s after %i attempts to sending for attempt %i: %s', (status, attempts, attempt, allowed) => {
      expect(permits('claim', { status, attempts }, 'sending', attempt)).toBe(allowed);
    });

    it('counts the attempt and has a single target', () => {
      expect(countsAttempt('claim')).toBe(true);
      expect(fixedTarget('claim')).toBe('sending');
    });
  });

  describe('suppress', () => {
    it.each<[MessageStatus, number, number, boolean]>([
      ['queued', 0, 1, true],
      ['deferred', 1, 2, true],
      // Its job came back after its worker died, and an entry was added meanwhile.
      ['sending', 2, 2, true],
      // A duplicate or late job: another attempt owns the message.
      ['deferred', 2, 2, false],
      ['sending', 2, 3, false],
      ['scheduled', 0, 1, false],
      ['sent', 1, 2, false],
      ['failed', 3, 4, false],
      ['canceled', 0, 1, false],
      ['suppressed', 1, 2, false],
    ])('suppresses a message in %s after %i attempts for attempt %i: %s', (status, attempts, attempt, allowed) => {
      expect(permits('suppress', { status, attempts }, 'suppressed', attempt)).toBe(allowed);
    });

    it("takes the claim's place: counts the attempt, with the claim's guard", () => {
      expect(countsAttempt('suppress')).toBe(true);
      expect(fixedTarget('suppress')).toBe('suppressed');
      expect(guardSql('suppress')).toBe(guardSql('claim'));
    });
  });

  describe('finish', () => {
    it.each(['sent', 'deferred', 'failed'] as const)('moves the current attempt from sending to %s', (to) => {
      expect(permits('finish', { status: 'sending', attempts: 2 }, to, 2)).toBe(true);
    });

    it.each<[MessageStatus, number, number]>([
      // A late result of an attempt that was taken over.
      ['sending', 3, 2],
      ['sent', 2, 2],
      ['deferred', 2, 2],
      ['failed', 2, 2],
      ['queued', 0, 0],
    ])('leaves a message in %s after %i attempts alone for attempt %i', (status, attempts, attempt) => {
      for (const to of ['sent', 'deferred', 'failed'] as const)
        expect(permits('finish', { status, attempts }, to, attempt)).toBe(false);
    });

    it('refuses a target outside the table', () => {
      expect(permits('finish', { status: 'sending', attempts: 1 }, 'queued', 1)).toBe(false);
      expect(permits('finish', { status: 'sending', attempts: 1 }, 'sending', 1)).toBe(false);
    });

    it('leaves the attempt count alone and lets the caller choose the target', () => {
      expect(countsAttempt('finish')).toBe(false);
      expect(fixedTarget('finish')).toBeUndefined();
    });
  });

  describe('bounce and complain', () => {
    it.each<[MessageStatus, boolean, boolean]>([
      ['sent', true, true],
      ['bounced', false, true],
      ['complained', false, false],
      // Before the relay's acceptance a report cannot be about this delivery.
      ['sending', false, false],
      ['deferred', false, false],
      ['failed', false, false],
      ['suppressed', false, false],
    ])('a message in %s may bounce: %s, complain: %s', (status, bounces, complains) => {
      expect(permits('bounce', { status, attempts: 1 }, 'bounced')).toBe(bounces);
      expect(permits('complain', { status, attempts: 1 }, 'complained')).toBe(complains);
    });

    it('needs no attempt: a report may come days after the delivery', () => {
      expect(countsAttempt('bounce') || countsAttempt('complain')).toBe(false);
      expect(guardSql('complain')).toBe(`m.status IN ('sent', 'bounced')`);
    });
  });

  describe('guardSql', () => {
    it('writes the claim as the guard of docs/delivery-and-deliverability.md#statuses: the next attempt from queued or deferred, or the same one again', () => {
      expect(guardSql('claim')).toBe(
        `(m.status IN ('queued', 'deferred') AND m.delivery_attempts = c.attempt - 1)\n` +
          ` OR (m.status = 'sending' AND m.delivery_attempts = c.attempt)`,
      );
    });

    it('writes the finish as the current attempt still sending, to a target of the table', () => {
      expect(guardSql('finish')).toBe(
        `m.status = 'sending' AND c.status IN ('sent', 'deferred', 'failed') AND m.delivery_attempts = c.attempt`,
      );
    });

    it('names only statuses the schema knows', () => {
      for (const name of Object.keys(TRANSITIONS) as TransitionName[]) {
        const named = [...guardSql(name).matchAll(/'([a-z]+)'/g)].map((match) => match[1]);
        expect(named.filter((status) => !(MESSAGE_STATUSES as readonly string[]).includes(status))).toEqual([]);
      }
    });
  });
});
