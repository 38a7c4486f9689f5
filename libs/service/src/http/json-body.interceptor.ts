import { Injectable, SetMetadata, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import type { Observable } from 'rxjs';
import { AppError } from '@platform/common';

const ACCEPTS_KEY = 'platform:accepts-content-types';

/** A route that takes a body other than JSON (uploads) says so; every other body must be JSON. */
export const AcceptsContentTypes = (...types: string[]) => SetMetadata(ACCEPTS_KEY, types);

const JSON_TYPE = /^application\/([\w.+-]+\+)?json\s*(;|$)/i;

function hasBody(request: Request): boolean {
  const length = request.headers['content-length'];
  return (length !== undefined && length !== '0') || request.headers['transfer-encoding'] !== undefined;
}

@Injectable()
export class JsonBodyInterceptor implements NestInterceptor {
  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() === 'http') {
      const request = context.switchToHttp().getRequest<Request>();
      if (hasBody(request)) {
        const type = request.headers['content-type'] ?? '';
        const accepted = this.reflector.get<string[] | undefined>(ACCEPTS_KEY, context.getHandler()) ?? [];
        const ok = JSON_TYPE.test(type) || accepted.some((a) => type.toLowerCase().startsWith(a));
        if (!ok) {
          throw new AppError('unsupported_media_type', 415, `Content-Type must be application/json${accepted.length ? ` or ${accepted.join(', ')}` : ''}`);
        }
      }
    }
    return next.handle();
  }
}
