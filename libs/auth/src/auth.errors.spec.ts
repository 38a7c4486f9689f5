import { describe, expect, it } from '@jest/globals';
import { BadRequestException, ForbiddenException, UnauthorizedException } from '@nestjs/common';
import { AUTH_MESSAGES, forbidden, tenantRequired, unauthorized } from './auth.errors.js';

describe('auth errors', () => {
  it('unauthorized is a 401 with the exact spec text', () => {
    const error = unauthorized();
    expect(error).toBeInstanceOf(UnauthorizedException);
    expect(error.getStatus()).toBe(401);
    expect(error.message).toBe('Missing or invalid authentication credentials');
  });

  it('forbidden is a 403 with the exact spec text', () => {
    const error = forbidden();
    expect(error).toBeInstanceOf(ForbiddenException);
    expect(error.getStatus()).toBe(403);
    expect(error.message).toBe("You don't have permission to access this resource");
  });

  it('tenantRequired is a 400 with the exact spec text', () => {
    const error = tenantRequired();
    expect(error).toBeInstanceOf(BadRequestException);
    expect(error.getStatus()).toBe(400);
    expect(error.message).toBe('X-SELECTED-TENANT header is required');
  });

  it('puts the spec text in the response body Nest builds', () => {
    expect(unauthorized().getResponse()).toMatchObject({ message: AUTH_MESSAGES.unauthorized, statusCode: 401 });
    expect(forbidden().getResponse()).toMatchObject({ message: AUTH_MESSAGES.forbidden, statusCode: 403 });
    expect(tenantRequired().getResponse()).toMatchObject({ message: AUTH_MESSAGES.tenantRequired, statusCode: 400 });
  });

  it('makes a fresh exception on every call', () => {
    expect(unauthorized()).not.toBe(unauthorized());
  });
});
