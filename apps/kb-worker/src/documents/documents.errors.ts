import { NotFoundError, ValidationFailedError } from '@platform/common';

export const DocumentErrors = {
  /** Also another tenant's or customer's document: indistinguishable from an unknown id. */
  notFound: () => new NotFoundError('Document'),
  invalid: (field: string, message: string) => new ValidationFailedError([{ field, message }]),
};
