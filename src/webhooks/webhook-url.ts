import { Injectable } from '@nestjs/common';
import {
  isURL,
  IsString,
  Validate,
  ValidateBy,
  ValidationArguments,
  ValidatorConstraint,
  ValidatorConstraintInterface,
} from 'class-validator';
import { AppConfig } from '../platform/config/app-config';
import { hasLength, TextLength } from '../platform/validation/validators';
import { unreachableWebhookUrl } from './webhook-target';

const URL_OPTIONS = { protocols: ['http', 'https'], require_protocol: true, require_tld: false };
const MAX_LENGTH = 2048;

/**
 * An absolute http(s) URL by validator.js's rules that the WHATWG URL parser (Node's `URL`, which
 * every later step and the HTTP client use) reads too: validator.js takes hosts that `URL` refuses,
 * such as an invalid punycode label (`xn--a.example`).
 */
const isWebhookUrl = (value: unknown): value is string =>
  typeof value === 'string' && isURL(value, URL_OPTIONS) && URL.canParse(value);

/**
 * A URL that can never be delivered (unreachableWebhookUrl: credentials, a private address named
 * outright unless WEBHOOK_ALLOW_PRIVATE_NETWORKS), said of an otherwise valid one only: a malformed
 * URL gets IsWebhookUrl's other messages alone. The setting is configuration, so this rule is a
 * provider that class-validator gets from Nest (app.setup.ts).
 */
@Injectable()
@ValidatorConstraint({ name: 'reachableWebhookUrl' })
export class ReachableWebhookUrlRule implements ValidatorConstraintInterface {
  constructor(private readonly config: AppConfig) {}

  validate(value: unknown): boolean {
    return this.problem(value) === undefined;
  }

  defaultMessage({ value }: ValidationArguments): string {
    return this.problem(value) ?? '';
  }

  private problem(value: unknown): string | undefined {
    if (!hasLength(value, 1, MAX_LENGTH) || !isWebhookUrl(value)) return undefined;
    return unreachableWebhookUrl(value, this.config.webhooks.allowPrivateNetworks);
  }
}

/**
 * A webhook target (docs/api.md#sending `webhook.url`, and endpoints, docs/delivery-and-deliverability.md#webhooks): an absolute http(s) URL of at
 * most 2,048 characters that could ever be delivered (ReachableWebhookUrlRule).
 */
export const IsWebhookUrl =
  () =>
  (target: object, property: string): void => {
    // In the order stacked decorators run, bottom first, so that failing rules are reported in the same order.
    const rules = [
      Validate(ReachableWebhookUrlRule),
      TextLength(1, MAX_LENGTH),
      ValidateBy(
        { name: 'isWebhookUrl', validator: { validate: isWebhookUrl } },
        { message: 'must be an absolute http(s) URL' },
      ),
      IsString(),
    ];
    for (const rule of rules) rule(target, property);
  };
