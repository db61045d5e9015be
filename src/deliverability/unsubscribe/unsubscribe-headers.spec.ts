import { AppConfig } from '../../platform/config/app-config';
import { UnsubscribeHeaders } from './unsubscribe-headers';
import { UnsubscribeTokens } from './unsubscribe-tokens';

const MESSAGE_ID = '0190f3a4-7b1c-7e2a-9d4e-5f6a7b8c9d0e';

function sutWith(env: Record<string, string>): { sut: UnsubscribeHeaders; tokens: UnsubscribeTokens } {
  const config = AppConfig.fromEnvironment({
    DATABASE_URL: 'postgres://localhost/unused',
    JWT_SECRET: 'a-secret-of-at-least-thirty-two-characters',
    DATA_ENCRYPTION_KEY: 'a-data-encryption-key-of-some-length',
    ...env,
  });
  const tokens = new UnsubscribeTokens(config);
  return { sut: new UnsubscribeHeaders(tokens, config), tokens };
}

describe('UnsubscribeHeaders', () => {
  it("gives bulk mail a link under PUBLIC_URL and a mailto: on BOUNCE_DOMAIN, both with the recipient's token, and one-click", () => {
    const { sut, tokens } = sutWith({
      PUBLIC_URL: 'https://mail.example.com/mailroom/',
      BOUNCE_DOMAIN: 'Bounces.Example.com',
    });
    const token = tokens.encode({ messageId: MESSAGE_ID, recipient: 7 });

    expect(sut.for({ id: MESSAGE_ID, bulkSendingId: 'spring' }, 7)).toEqual({
      'List-Unsubscribe': `<https://mail.example.com/mailroom/unsubscribe/${token}>, <mailto:unsubscribe+${token}@bounces.example.com>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });
  });

  it('gives the link alone without BOUNCE_DOMAIN', () => {
    const { sut, tokens } = sutWith({ PUBLIC_URL: 'https://mail.example.com' });

    expect(sut.for({ id: MESSAGE_ID, bulkSendingId: 'spring' }, 0)['List-Unsubscribe']).toBe(
      `<https://mail.example.com/unsubscribe/${tokens.encode({ messageId: MESSAGE_ID, recipient: 0 })}>`,
    );
  });

  it('gives other mail none', () => {
    expect(
      sutWith({ BOUNCE_DOMAIN: 'bounces.example.com' }).sut.for({ id: MESSAGE_ID, bulkSendingId: null }, 0),
    ).toEqual({});
  });
});
