import { createParamDecorator, ExecutionContext } from '@nestjs/common';

/** The caller, as the JWT strategy established it from the token's `sub`. */
export interface AuthUser {
  id: string;
}

export const CurrentUser = createParamDecorator(
  (_data: unknown, context: ExecutionContext): AuthUser => context.switchToHttp().getRequest().user,
);
