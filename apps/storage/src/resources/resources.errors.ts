import { AppError, ConflictError, NotFoundError } from '@platform/common';
import { MAX_CONFIG_BYTES } from './dto/resource.request.dto.js';

export const ResourceErrors = {
  notFound: () => new NotFoundError('Resource'),
  duplicateName: (name: string) => new ConflictError('duplicate_name', `A resource named '${name}' already exists`),
  configTooLarge: () =>
    new AppError('validation_failed', 400, `Validation failed: config must be at most ${MAX_CONFIG_BYTES} bytes of JSON`, [
      { field: 'config', message: `must be at most ${MAX_CONFIG_BYTES} bytes of JSON` },
    ]),
};
