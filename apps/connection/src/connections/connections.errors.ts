import { AppError, NotFoundError, ValidationFailedError } from '@platform/common';

/** The connection feature's errors. None carries a credential. */
export const ConnectionErrors = {
  /** Also another tenant's or customer's connection: indistinguishable from an unknown id. */
  notFound: () => new NotFoundError('Connection'),
  invalid: (field: string, message: string) => new ValidationFailedError([{ field, message }]),
  noCustomer: () => new AppError('no_customer', 400, 'customer_connection needs a run for a customer (X-Scope-Key or a customer key)'),
  noCustomerConnection: (connectorId: string) => new AppError('no_customer_connection', 404, `The customer has no ${connectorId} connection`),
  unknownOperation: (connectorId: string, operationId: string) =>
    new ValidationFailedError([{ field: 'operation', message: `${operationId} is not an operation of ${connectorId}` }]),
  needsReauth: (reason: string | null) =>
    new AppError('connection_needs_reauth', 409, `The connection needs to be authorized again${reason ? `: ${reason}` : ''}`),
  pending: () => new AppError('connection_pending_authorization', 409, 'The connection has not been authorized yet (POST /connections/oauth/start)'),
  notOAuth: () => new AppError('not_oauth', 409, 'The connection does not use the OAuth 2.0 authorization code flow'),
  unavailable: (message: string) => new AppError('connector_unavailable', 502, message),
};
