// PATCH /domains/{id} {receiving} (docs/inbound.md): a verified domain only (and never BOUNCE_DOMAIN),
// one receiver per domain name across users, the MX record in dnsRecords, and the listener taking
// its mail from then on; a domain that goes back to pending stops receiving.
import MailComposer from 'nodemailer/lib/mail-composer';
import { sendWithNodemailer } from '../../support/bounces/smtp-clients';
import { bearer, newUserId } from '../../support/tokens';
import { createEndpoint } from '../../support/webhook-endpoints/endpoint-support';
import { bootInboundApp, newDomain, TIMEOUT } from '../../support/inbound/inbound-app';

const compose = (to: string): Promise<Buffer> =>
  new MailComposer({ from: 'cara@example.org', to, subject: 'hello', text: 'hi' }).compile().build();

describe('receiving domains', () => {
  const app = bootInboundApp({ INBOUND_MX_HOST: 'mx.mailroom.example', BOUNCE_DOMAIN: 'Bounces.Mailroom.Example' });
  const { t } = app;

  it(
    'refuses a pending domain (409) and turns a verified one on, showing its MX record',
    async () => {
      const userId = newUserId('receiving');
      const pending = (await t.http.post('/domains').set(bearer(userId)).send({ name: newDomain() }).expect(201)).body;
      expect(pending.receiving).toBe(false);
      const refused = await t.http.patch(`/domains/${pending.id}`).set(bearer(userId)).send({ receiving: true });
      expect(refused.status).toBe(409);
      expect(refused.body.detail).toMatch(/pending/);

      const domain = await app.receivingDomain(userId);
      expect(domain.receiving).toBe(true);
      expect(domain.dnsRecords.filter((r: { purpose: string }) => r.purpose === 'inbound')).toEqual([
        {
          type: 'MX',
          name: domain.name,
          host: '@',
          zone: domain.name,
          value: '10 mx.mailroom.example',
          ttl: 3600,
          purpose: 'inbound',
          required: false,
        },
      ]);
      expect((await t.http.get(`/domains/${domain.id}`).set(bearer(userId)).expect(200)).body.receiving).toBe(true);

      const off = (
        await t.http.patch(`/domains/${domain.id}`).set(bearer(userId)).send({ receiving: false }).expect(200)
      ).body;
      expect(off.receiving).toBe(false);
      expect(off.dnsRecords.map((r: { purpose: string }) => r.purpose)).toEqual(['dkim', 'spf', 'dmarc']);
    },
    TIMEOUT,
  );

  it(
    'lets one user receive for a domain name: the second is a 409, and mail goes to the first',
    async () => {
      const [first, second] = [newUserId('first'), newUserId('second')];
      const name = newDomain('shared');
      const held = await app.receivingDomain(first, name);
      const theirs = await app.verifiedDomain(second, name);
      const refused = await t.http.patch(`/domains/${theirs.id}`).set(bearer(second)).send({ receiving: true });
      expect(refused.status).toBe(409);
      expect(refused.body.detail).toBe(
        `Another account receives mail for ${name}; one account receives for a domain name.`,
      );

      expect(
        await sendWithNodemailer(app.port(), `sales@${name}`, await compose(`sales@${name}`), 'cara@example.org'),
      ).toEqual({
        accepted: true,
        reply: expect.stringMatching(/^250 /),
      });
      expect((await app.list(first)).total).toBe(1);
      expect((await app.list(second)).total).toBe(0);
      // Its record still in DNS, the holder keeps the name, untouched.
      expect((await t.http.get(`/domains/${held.id}`).set(bearer(first)).expect(200)).body).toMatchObject({
        status: 'verified',
        receiving: true,
        receivingStopped: null,
      });
    },
    TIMEOUT,
  );

  it(
    'stops taking mail once receiving is off (550 at RCPT), and refuses any address of a domain nobody receives for',
    async () => {
      const userId = newUserId('off');
      const domain = await app.receivingDomain(userId);
      await t.http.patch(`/domains/${domain.id}`).set(bearer(userId)).send({ receiving: false }).expect(200);
      const to = `info@${domain.name}`;
      expect(await sendWithNodemailer(app.port(), to, await compose(to), 'cara@example.org')).toMatchObject({
        accepted: false,
        code: 550,
      });
      const elsewhere = `info@${newDomain('nobody')}`;
      expect(
        await sendWithNodemailer(app.port(), elsewhere, await compose(elsewhere), 'cara@example.org'),
      ).toMatchObject({
        accepted: false,
        code: 550,
      });
      expect((await app.list(userId)).total).toBe(0);
    },
    TIMEOUT,
  );

  it(
    'stops receiving once a verify no longer finds the DKIM record, freeing the name for its owner',
    async () => {
      const [stale, owner] = [newUserId('stale'), newUserId('owner')];
      const name = newDomain('moved');
      const domain = await app.receivingDomain(stale, name);
      const dkim = domain.dnsRecords.find((r: { purpose: string }) => r.purpose === 'dkim');
      app.dns.unpublish(dkim.name);
      const checked = (await t.http.post(`/domains/${domain.id}/verify`).set(bearer(stale)).expect(200)).body;
      expect(checked).toMatchObject({
        status: 'pending',
        receiving: false,
        receivingStopped: `Receiving stopped when verify no longer found the DKIM record (no TXT record at ${dkim.name}): verify the domain again, then turn receiving on.`,
      });
      expect(checked.dnsRecords.map((r: { purpose: string }) => r.purpose)).not.toContain('inbound');
      expect((await t.http.get(`/domains/${domain.id}`).set(bearer(stale)).expect(200)).body).toEqual({
        ...checked,
        missing: undefined,
        recommended: undefined,
      });
      const to = `info@${name}`;
      expect(await sendWithNodemailer(app.port(), to, await compose(to), 'cara@example.org')).toMatchObject({
        accepted: false,
        code: 550,
      });

      // The name's owner now verifies it with a key of its own, and receives for it.
      const theirs = await app.receivingDomain(owner, name);
      expect(theirs).toMatchObject({ receiving: true, receivingStopped: null });
      expect(await sendWithNodemailer(app.port(), to, await compose(to), 'cara@example.org')).toMatchObject({
        accepted: true,
      });
      expect((await app.list(owner)).total).toBe(1);
      expect((await app.list(stale)).total).toBe(0);

      // Verified again, the stale domain does not take the name back.
      app.dns.publish(dkim.name, dkim.value);
      const again = (await t.http.post(`/domains/${domain.id}/verify`).set(bearer(stale)).expect(200)).body;
      expect(again).toMatchObject({ status: 'verified', receiving: false });
      const refused = await t.http.patch(`/domains/${domain.id}`).set(bearer(stale)).send({ receiving: true });
      expect(refused.status).toBe(409);
      expect(refused.body.detail).toMatch(/Another account receives mail/);
    },
    TIMEOUT,
  );

  it(
    "gives the name to its owner when the stale receiver's DKIM record is gone from DNS, though the stale one never verifies again",
    async () => {
      const [stale, owner] = [newUserId('stale'), newUserId('owner')];
      const name = newDomain('abandoned');
      const domain = await app.receivingDomain(stale, name);
      const endpoint = await createEndpoint(t.http, stale, 'https://hooks.example.net/stale', ['domain.pending']);
      const dkim = domain.dnsRecords.find((r: { purpose: string }) => r.purpose === 'dkim');
      app.dns.unpublish(dkim.name);

      // No verify by the stale user: turning receiving on looks its record up instead.
      const theirs = await app.receivingDomain(owner, name);
      expect(theirs).toMatchObject({ receiving: true, receivingStopped: null });
      const to = `info@${name}`;
      expect(await sendWithNodemailer(app.port(), to, await compose(to), 'cara@example.org')).toMatchObject({
        accepted: true,
      });
      expect((await app.list(owner)).total).toBe(1);
      expect((await app.list(stale)).total).toBe(0);
      expect((await t.http.get(`/domains/${domain.id}`).set(bearer(stale)).expect(200)).body).toMatchObject({
        status: 'pending',
        receiving: false,
        receivingStopped: `Receiving stopped when another account turned receiving on for ${name} and DNS no longer had this domain's DKIM record (no TXT record at ${dkim.name}): verify the domain again.`,
      });
      // Its owner is told, as a verify that found the record gone would tell it (docs/delivery-and-deliverability.md#webhooks).
      const events = await t.db.query(
        `SELECT data->'domain'->>'status' AS status FROM webhook_events WHERE endpoint_id = $1 AND type = 'domain.pending'`,
        [endpoint.id],
      );
      expect(events).toEqual([{ status: 'pending' }]);
    },
    TIMEOUT,
  );

  it(
    'refuses receiving for BOUNCE_DOMAIN, in any case (409), changing nothing',
    async () => {
      const userId = newUserId('bounce-domain');
      const domain = await app.verifiedDomain(userId, 'BOUNCES.mailroom.example');
      expect(domain).toMatchObject({ name: 'bounces.mailroom.example', status: 'verified' });
      const refused = await t.http.patch(`/domains/${domain.id}`).set(bearer(userId)).send({ receiving: true });
      expect(refused.status).toBe(409);
      expect(refused.body.detail).toBe(
        "bounces.mailroom.example is this service's BOUNCE_DOMAIN: mail to it is read as bounces and complaints, so no account receives it.",
      );
      expect((await t.http.get(`/domains/${domain.id}`).set(bearer(userId)).expect(200)).body.receiving).toBe(false);
      await t.http.patch(`/domains/${domain.id}`).set(bearer(userId)).send({ receiving: false }).expect(200);
    },
    TIMEOUT,
  );

  it.each([
    [{ receiving: 'yes' }, 'receiving'],
    [{}, 'receiving'],
    [{ receiving: true, name: 'x.example' }, 'name'],
  ])('refuses the body %j naming %s (400), changing nothing', async (body, field) => {
    const userId = newUserId('bad-body');
    const domain = await app.verifiedDomain(userId);
    const refused = await t.http.patch(`/domains/${domain.id}`).set(bearer(userId)).send(body).expect(400);
    expect(refused.body.errors.map((e: { field: string }) => e.field)).toEqual([field]);
    expect((await t.http.get(`/domains/${domain.id}`).set(bearer(userId)).expect(200)).body.receiving).toBe(false);
  });

  it("answers another user's domain, an unknown and a malformed id with 404", async () => {
    const owner = newUserId('owner');
    const domain = await app.verifiedDomain(owner);
    for (const id of [domain.id, '0190f3a4-7b1c-7e2a-9d4e-5f6a7b8c9d0e', 'not-an-id'])
      await t.http
        .patch(`/domains/${id}`)
        .set(bearer(newUserId('other')))
        .send({ receiving: true })
        .expect(404);
    expect((await t.http.get(`/domains/${domain.id}`).set(bearer(owner)).expect(200)).body.receiving).toBe(false);
  });
});
