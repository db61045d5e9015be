import { rootCertificates } from 'node:tls';
import type { DirectDeliveryConfig } from '../../platform/config/direct-delivery';
import { DirectTrust, trustOf } from './direct-trust';

const config = (mtaStsCa?: Buffer): DirectDeliveryConfig => ({
  heloName: 'out.example.test',
  sourceAddresses: [],
  mxPort: 25,
  mtaStsCaFile: mtaStsCa && '/etc/ca.pem',
  mtaStsCa,
  messagesPerConnection: 100,
});

describe(DirectTrust.name, () => {
  it("is the system's CAs when no extra bundle is given", () => {
    expect(new DirectTrust().certificates).toEqual([...rootCertificates]);
  });

  it("adds the extra bundle whole after the system's CAs", () => {
    const bundle = Buffer.from(`${rootCertificates[0]}\n${rootCertificates[1]}\n`);
    expect(new DirectTrust(bundle).certificates).toEqual([...rootCertificates, bundle]);
  });
});

describe(trustOf.name, () => {
  it('builds one trust (one TLS context) per configuration, shared by whoever asks', () => {
    const bundle = Buffer.from(rootCertificates[0]);
    const one = config(bundle);

    expect(trustOf(one)).toBe(trustOf(one));
    expect(trustOf(one).context).toBe(trustOf(one).context);
    expect(trustOf(one).certificates).toEqual([...rootCertificates, bundle]);
    expect(trustOf(config())).not.toBe(trustOf(one));
  });
});
