import { movesToNextRelay } from './relay-failover';

// The errors as nodemailer 10 shapes them: `code`, the reply's `responseCode` and `command`, and
// for refused recipients `rejectedErrors`, each with its own code.
const reply = (responseCode: number, command: string, extra: object = {}) =>
  Object.assign(new Error(`${responseCode} reply`), { code: 'EENVELOPE', responseCode, command, ...extra });
const refusal = (recipient: string, responseCode: number) =>
  Object.assign(new Error(`${responseCode} ${recipient}`), { recipient, responseCode, command: 'RCPT TO' });

describe(movesToNextRelay.name, () => {
  it.each([
    ['a refused connection', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ESOCKET' })],
    ['a connection closed unexpectedly', Object.assign(new Error('Connection closed'), { code: 'ECONNECTION' })],
    ['a connection or greeting timeout', Object.assign(new Error('Greeting never received'), { code: 'ETIMEDOUT' })],
    ['a host name that does not resolve', Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'EDNS' })],
    ['a failed TLS handshake', Object.assign(new Error('self-signed certificate'), { code: 'ETLS' })],
    ['a greeting of 421', reply(421, 'CONN', { code: 'EPROTOCOL' })],
    ['421 to MAIL FROM', reply(421, 'MAIL FROM')],
    ['451 to DATA', reply(451, 'DATA', { code: 'EMESSAGE' })],
    [
      'every recipient refused for now',
      reply(451, 'RCPT TO', { rejectedErrors: [refusal('a@x.example', 451), refusal('b@x.example', 452)] }),
    ],
    ['a failed login (535)', reply(535, 'AUTH PLAIN', { code: 'EAUTH' })],
    ['530 must issue STARTTLS first', reply(530, 'MAIL FROM')],
  ])('moves on after %s', (_, error) => {
    expect(movesToNextRelay(error)).toBe(true);
  });

  it.each([
    ['550 to MAIL FROM', reply(550, 'MAIL FROM')],
    ['554 to DATA (the message refused)', reply(554, 'DATA', { code: 'EMESSAGE' })],
    ['every recipient refused for good', reply(550, 'RCPT TO', { rejectedErrors: [refusal('a@x.example', 550)] })],
    [
      'every recipient refused, one of them for good (its refusal is an answer)',
      reply(451, 'RCPT TO', { rejectedErrors: [refusal('a@x.example', 550), refusal('b@x.example', 451)] }),
    ],
    ['a message nodemailer could not build', Object.assign(new Error('Invalid attachment'), { code: 'EMESSAGE' })],
    [
      'no recipients at all (nodemailer refuses before sending)',
      Object.assign(new Error('No recipients defined'), { code: 'EENVELOPE' }),
    ],
    ["the send budget running out (MailerService's own timeout)", new Error('Send mail timed out after 60000ms')],
    ['something that is not an error', undefined],
  ])('stays with the answer after %s', (_, error) => {
    expect(movesToNextRelay(error)).toBe(false);
  });
});
