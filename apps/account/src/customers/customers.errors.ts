import { AppError, ConflictError, NotFoundError } from '@platform/common';

export const CustomerErrors = {
  notFound: () => new NotFoundError('Customer'),
  /** A customer-scoped caller manages only itself. */
  forbidden: () => new AppError('forbidden', 403, "You don't have permission to access this resource"),
  duplicateExternalId: () => new ConflictError('duplicate_external_id', 'A customer with this external_id already exists'),
};

const UNIQUE_VIOLATION = '23505';

export function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: string })?.code === UNIQUE_VIOLATION;
}
