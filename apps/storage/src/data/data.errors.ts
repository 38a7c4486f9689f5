import { forbidden } from '@platform/auth';
import { AppError, ConflictError, NotFoundError, ValidationFailedError, type FieldError } from '@platform/common';

export const DataErrors = {
  tableNotFound: (name: string) => new NotFoundError(`Data table '${name}'`),
  rowNotFound: () => new NotFoundError('Row'),
  duplicateTable: (name: string) => new ConflictError('duplicate_table', `A data table named '${name}' already exists in this environment`),
  uniqueViolation: (column: string | undefined) =>
    new ConflictError('unique_violation', column ? `Another row already has this value in unique column '${column}'` : 'The row breaks a unique constraint'),
  invalid: (details: FieldError[]) => new ValidationFailedError(details.slice(0, 100)),
  invalidTableName: () => new ValidationFailedError([{ field: 'name', message: 'must match [a-z_][a-z0-9_]{0,62}' }]),
  invalidRowId: () => new ValidationFailedError([{ field: 'id', message: 'must be a UUID' }]),
  /** Table definitions belong to the tenant: a customer-scoped credential cannot change them. */
  customerScoped: () => forbidden(),
  /** The query refused before it ran: names the problem and where (1-based character position). */
  query: (message: string, position?: number) =>
    new AppError('invalid_query', 400, position ? `${message} at position ${position}` : message, [
      { field: 'query', message: position ? `${message} at position ${position}` : message },
    ]),
  /** The database refused the query while it ran (bad cast, division by zero, timeout). */
  queryFailed: (message: string) => new AppError('query_failed', 400, message, [{ field: 'query', message }]),
  params: (message: string) => new ValidationFailedError([{ field: 'params', message }]),
};
