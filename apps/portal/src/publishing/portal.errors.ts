import { AppError, NotFoundError } from '@platform/common';

export const PortalErrors = {
  publishedNotFound: () => new NotFoundError('Published workflow'),
  dashboardNotFound: () => new NotFoundError('Dashboard'),
  embedNotFound: () => new NotFoundError('Embed'),
  runNotFound: () => new NotFoundError('Execution'),
  /** Publishing, dashboards and embeds are managed by the tenant; a customer-scoped caller only reads and runs. */
  forbidden: () => new AppError('forbidden', 403, "You don't have permission to access this resource"),
};
