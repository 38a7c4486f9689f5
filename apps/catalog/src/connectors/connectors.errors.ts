import { forbidden } from '@platform/auth';
import { NotFoundError } from '@platform/common';

export const ConnectorErrors = {
  notFound: () => new NotFoundError('Connector'),
  /**
   * Installed connectors are the environment's, used by every connection and run in it: a
   * customer-scoped caller uses them but never saves, installs or removes one (403, as for data
   * tables and secrets).
   */
  customerScoped: () => forbidden(),
};
