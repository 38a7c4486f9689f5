import { NotFoundError } from '@platform/common';

export const ConnectorErrors = {
  notFound: () => new NotFoundError('Connector'),
};
