import { IsString, IsUrl } from 'class-validator';
import { TextLength } from './validators';

/** A webhook target (SPEC §4 `webhook.url`, §11 endpoints): an absolute http(s) URL of at most 2,048 characters. */
export const IsWebhookUrl =
  () =>
  (target: object, property: string): void => {
    // In the order stacked decorators run, bottom first, so that failing rules are reported in the same order.
    const rules = [
      TextLength(1, 2048),
      IsUrl(
        { protocols: ['http', 'https'], require_protocol: true, require_tld: false },
        { message: 'must be an absolute http(s) URL' },
      ),
      IsString(),
    ];
    for (const rule of rules) rule(target, property);
  };
