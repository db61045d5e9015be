import { Injectable } from '@nestjs/common';
import { ValidatorConstraint, ValidatorConstraintInterface } from 'class-validator';
import { AppConfig } from '../../config/app-config';

/** `MAX_RECIPIENTS` is configuration, so this rule is a provider that class-validator gets from Nest. */
@Injectable()
@ValidatorConstraint({ name: 'maxRecipients' })
export class MaxRecipientsRule implements ValidatorConstraintInterface {
  constructor(private readonly config: AppConfig) {}

  validate(value: unknown): boolean {
    return !Array.isArray(value) || value.length <= this.config.limits.maxRecipients;
  }

  defaultMessage(): string {
    return `must have at most ${this.config.limits.maxRecipients} distinct recipients`;
  }
}
