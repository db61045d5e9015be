import { ratesOf } from './message-stats.service';
import { RECIPIENT_STATUSES } from './recipient-fates';
import type { RecipientStatus } from './recipient-fates';

const recipients = (counts: Partial<Record<RecipientStatus, number>>) =>
  ({ ...Object.fromEntries(RECIPIENT_STATUSES.map((fate) => [fate, 0])), ...counts }) as Record<
    RecipientStatus,
    number
  >;

describe(ratesOf.name, () => {
  it('counts bounces and address refusals over the recipients handed over, complaints over those accepted', () => {
    // Handed over: 6 sent + 1 bounced + 1 complained + 3 refused for the address + 1 refused otherwise = 12.
    const rates = ratesOf(recipients({ sent: 6, bounced: 1, complained: 1, failed: 5, pending: 9 }), {
      address: 3,
      other: 1,
    });
    expect(rates).toEqual({ bounceRate: 4 / 12, complaintRate: 1 / 8 });
  });

  it('is null where its divisor is 0: nothing handed over, nothing accepted', () => {
    expect(ratesOf(recipients({ pending: 3, failed: 2, canceled: 1 }), { address: 0, other: 0 })).toEqual({
      bounceRate: null,
      complaintRate: null,
    });
    // Refused, never accepted: a bounce rate, no complaint rate.
    expect(ratesOf(recipients({ failed: 2 }), { address: 2, other: 0 })).toEqual({
      bounceRate: 1,
      complaintRate: null,
    });
  });
});
