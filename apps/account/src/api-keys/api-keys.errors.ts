import { isKnownScope } from '@platform/auth';
import { AppError, ConflictError, NotFoundError } from '@platform/common';

export const ApiKeyErrors = {
  notFound: () => new NotFoundError('API key'),
  dataPlaneNotFound: () => new NotFoundError('Data plane'),
  notActive: (status: string) => new ConflictError('key_not_active', `The key is ${status}; only an active key can be rotated or revoked`),
  customerNotFound: () =>
    new AppError('customer_not_found', 400, 'customer_id: no such customer in this data plane', [
      { field: 'customer_id', message: 'no such customer in this data plane' },
    ]),
  customerIdRequired: () =>
    new AppError('validation_failed', 400, 'customer_id: required for a customer key', [
      { field: 'customer_id', message: 'is required when type is customer' },
    ]),
  customerIdForbidden: () =>
    new AppError('validation_failed', 400, 'customer_id: only customer keys belong to a customer', [
      { field: 'customer_id', message: 'must be absent when type is tenant' },
    ]),
  unknownScopes: (scopes: string[]) => {
    const details = scopes.flatMap((scope, i) =>
      isKnownScope(scope) ? [] : [{ field: `scopes[${i}]`, message: `'${scope}' is not a scope (see GET /account/api-keys/scopes)` }],
    );
    return details.length
      ? new AppError('validation_failed', 400, `Validation failed: ${details.map((d) => `${d.field} ${d.message}`).join('; ')}`, details)
      : undefined;
  },
  expiryInPast: () => new AppError('validation_failed', 400, 'expires_at: must be in the future', [{ field: 'expires_at', message: 'must be in the future' }]),
};
