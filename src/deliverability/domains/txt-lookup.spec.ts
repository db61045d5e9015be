import { AppConfig, ConfigurationError } from '../../platform/config/app-config';
import { TxtLookup } from './txt-lookup';

const lookupWith = (dnsServers: string[]) => () =>
  new TxtLookup({ deliverability: { dnsServers } } as unknown as AppConfig);

describe(TxtLookup.name, () => {
  it("takes IP addresses with optional ports, and none (the system's resolvers)", () => {
    expect(lookupWith(['192.0.2.53', '127.0.0.1:5353', '[::1]:53', '2001:db8::53'])()).toBeInstanceOf(TxtLookup);
    expect(lookupWith([])()).toBeInstanceOf(TxtLookup);
  });

  it.each([['dns.example.net'], ['127.0.0.1:port'], ['256.1.1.1']])(
    'stops the start-up on DNS_SERVERS entry %s, naming the variable',
    (entry) => {
      expect(lookupWith(['192.0.2.53', entry])).toThrow(ConfigurationError);
      expect(lookupWith([entry])).toThrow(/^DNS_SERVERS must list IP addresses/);
    },
  );
});
