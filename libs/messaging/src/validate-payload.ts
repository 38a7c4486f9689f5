import { RpcException } from '@nestjs/microservices';
import { plainToInstance, type ClassConstructor } from 'class-transformer';
import { validateSync } from 'class-validator';
import { exceedsJsonDepth, flattenValidationErrors, MAX_JSON_DEPTH } from '@platform/common';

/**
 * Message payloads are validated where they are consumed, like HTTP bodies: coming from another
 * service is no proof of being well-formed. A bad one is answered with the 400 error shape, which
 * the caller's Bus turns into a typed remote error.
 */
export function validatePayload<T extends object>(type: ClassConstructor<T>, data: unknown): T {
  // Checked without recursion before class-transformer walks the payload recursively.
  if (exceedsJsonDepth(data))
    throw new RpcException({ code: 'validation_failed', status: 400, message: `The payload nests deeper than ${MAX_JSON_DEPTH} levels` });
  const instance = plainToInstance<T, object>(type, data ?? {}, { enableImplicitConversion: false });
  const errors = validateSync(instance, { whitelist: true, forbidNonWhitelisted: true });
  if (errors.length) {
    const details = flattenValidationErrors(errors);
    throw new RpcException({
      code: 'validation_failed',
      status: 400,
      message: `Validation failed: ${details.map((d) => `${d.field} ${d.message}`).join('; ')}`,
      details,
    });
  }
  return instance;
}

export function rpcError(status: number, code: string, message: string): RpcException {
  return new RpcException({ code, status, message });
}
