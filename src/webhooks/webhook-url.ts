import { isURL, IsString, ValidateBy } from 'class-validator';
import { TextLength } from '../platform/validation/validators';

const URL_OPTIONS = { protocols: ['http', 'https'], require_protocol: true, require_tld: false };

/**
 * An absolute http(s) URL by validator.js's rules that the WHATWG URL parser (Node's `URL`, which
 * every later step and the HTTP client use) reads too: validator.js takes hosts that `URL` refuses,
 * such as an invalid punycode label (`xn--a.example`).
 */
const isWebhookUrl = (value: unknown): boolean =>
  typeof value === 'string' && isURL(value, URL_OPTIONS) && URL.canParse(value);

/** A webhook target (docs/api.md#sending `webhook.url`, §11 endpoints): an absolute http(s) URL of at most 2,048 characters. */
export const IsWebhookUrl =
  () =>
  (target: object, property: string): void => {
    // In the order stacked decorators run, bottom first, so that failing rules are reported in the same order.
    const rules = [
      TextLength(1, 2048),
      ValidateBy(
        { name: 'isWebhookUrl', validator: { validate: isWebhookUrl } },
        { message: 'must be an absolute http(s) URL' },
      ),
      IsString(),
    ];
    for (const rule of rules) rule(target, property);
  };
