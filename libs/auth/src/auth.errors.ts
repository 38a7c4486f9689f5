import { BadRequestException, ForbiddenException, UnauthorizedException } from '@nestjs/common';

/** The spec's exact texts (section 7); clients match on them. */
export const AUTH_MESSAGES = {
  unauthorized: 'Missing or invalid authentication credentials',
  forbidden: "You don't have permission to access this resource",
  tenantRequired: 'X-SELECTED-TENANT header is required',
} as const;

export const unauthorized = () => new UnauthorizedException(AUTH_MESSAGES.unauthorized);
export const forbidden = () => new ForbiddenException(AUTH_MESSAGES.forbidden);
export const tenantRequired = () => new BadRequestException(AUTH_MESSAGES.tenantRequired);
