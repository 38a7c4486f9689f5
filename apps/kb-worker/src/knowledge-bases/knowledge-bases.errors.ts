import { NotFoundError, ValidationFailedError } from '@platform/common';

export const KnowledgeBaseErrors = {
  /** Also another tenant's or customer's knowledge base: indistinguishable from an unknown id. */
  notFound: () => new NotFoundError('Knowledge base'),
  invalid: (field: string, message: string) => new ValidationFailedError([{ field, message }]),
};
