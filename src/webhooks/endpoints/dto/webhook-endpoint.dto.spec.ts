import 'reflect-metadata';
import { useContainer } from 'class-validator';
import { AppConfig } from '../../../platform/config/app-config';
import { InvalidInputError } from '../../../platform/problem/problem.errors';
import { createValidationPipe } from '../../../platform/validation/validation.pipe';
import { ReachableWebhookUrlRule } from '../../webhook-url';
import { CreateWebhookEndpointDto, UpdateWebhookEndpointDto } from './webhook-endpoint.dto';

// The endpoint's URL is checked here alone: WebhookEndpointsService does not check it again.
describe.each([false, true])(
  'a webhook endpoint url with WEBHOOK_ALLOW_PRIVATE_NETWORKS=%s',
  (allowPrivateNetworks) => {
    const sut = createValidationPipe();
    const rule = new ReachableWebhookUrlRule({ webhooks: { allowPrivateNetworks } } as AppConfig);
    const privateRefusal = (address: string) =>
      `must not name a private, loopback or link-local address (${address}); an operator can allow private networks with WEBHOOK_ALLOW_PRIVATE_NETWORKS=true`;
    // An http URL of `length` characters naming 127.0.0.1 outright.
    const privateUrl = (length: number) => `http://127.0.0.1/${'a'.repeat(length - 'http://127.0.0.1/'.length)}`;

    beforeAll(() =>
      useContainer({ get: (c: unknown) => (c === ReachableWebhookUrlRule ? rule : undefined) }, { fallback: true }),
    );
    afterAll(() => useContainer({ get: () => undefined }, { fallback: true }));

    describe.each([CreateWebhookEndpointDto, UpdateWebhookEndpointDto].map((dto) => [dto.name, dto] as const))(
      'in %s',
      (_, metatype) => {
        const transform = (url: string) =>
          sut.transform({ url }, { type: 'body', metatype }).catch((e: unknown) => e) as Promise<unknown>;
        const errors = async (url: string) => ((await transform(url)) as InvalidInputError).errors;

        it('refuses credentials, and a private address named outright unless allowed', async () => {
          expect(await errors('https://user:secret@example.com/hook')).toEqual([
            { field: 'url', message: 'must not contain a user name or password' },
          ]);
          for (const [url, address] of [
            ['http://127.0.0.1:8080/hook', '127.0.0.1'],
            ['http://[::1]/hook', '::1'],
          ]) {
            if (allowPrivateNetworks) expect(await transform(url)).toBeInstanceOf(metatype);
            else expect(await errors(url)).toEqual([{ field: 'url', message: privateRefusal(address) }]);
          }
          expect(await transform('https://hooks.example.com/mailroom')).toBeInstanceOf(metatype);
        });

        it('judges a URL of 2,048 characters; of 2,049 says only its length', async () => {
          if (allowPrivateNetworks) expect(await transform(privateUrl(2048))).toBeInstanceOf(metatype);
          else expect(await errors(privateUrl(2048))).toEqual([{ field: 'url', message: privateRefusal('127.0.0.1') }]);
          expect(await errors(privateUrl(2049))).toEqual([{ field: 'url', message: 'must be 1 to 2048 characters' }]);
        });
      },
    );
  },
);
