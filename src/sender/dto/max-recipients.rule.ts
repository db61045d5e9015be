import { Injectable } from '@nestjs/common';
import { ValidationArguments, ValidatorConstraint, ValidatorConstraintInterface } from 'class-validator';
import { AppConfig } from '../../platform/config/app-config';
import { recipientLimitMessage } from '../../messages';

/**
 * `MAX_RECIPIENTS` bounds to, cc and bcc together (recipientLimitMessage), for every way in: the
 * SMTP submission validates as the REST API does. It is configuration, so this rule is a provider that
 * class-validator gets from Nest.
 */
@Injectable()
@ValidatorConstraint({ name: 'maxRecipients' })
export class MaxRecipientsRule implements ValidatorConstraintInterface {
  constructor(private readonly config: AppConfig) {}

  validate(value: unknown, { object }: ValidationArguments): boolean {
    return !Array.isArray(value) || this.problem(object) === undefined;
  }

  defaultMessage({ object }: ValidationArguments): string {
    return this.problem(object) ?? '';
  }

  private problem(object: object): string | undefined {
    return recipientLimitMessage(object, this.config.limits.maxRecipients);
  }
}
