import { AppError, ConflictError, NotFoundError } from '@platform/common';

export const ProviderErrors = {
  /** Also another tenant's provider: indistinguishable from an unknown id. */
  notFound: () => new NotFoundError('Provider'),
  nameTaken: (name: string) => new ConflictError('provider_exists', `A provider named ${name} exists already`),
  /** Providers are the tenant's: customer keys use them but cannot see or change them. */
  customerForbidden: () => new AppError('forbidden', 403, "You don't have permission to access this resource"),
};
