import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import type { Request } from 'express';
import type { Observable } from 'rxjs';
import { assertStorableText } from '@platform/common';

/**
 * Refuses (400 `invalid_character`) a request with a string PostgreSQL cannot store as sent: NUL,
 * or an unpaired surrogate (see findUnstorableText), in a path parameter, a query parameter, or
 * anywhere in the parsed JSON body, keys included. Checked once here for every route of every
 * service, so no feature can pass such a string to a query and answer 500. An interceptor, not a
 * pipe or a middleware: it runs for routes that read the request themselves (`@Req()`, the webhook
 * intake) as well, and after routing, so a path parameter is named. Bodies a route reads itself
 * (forms, text) are checked by that route with the same function.
 */
@Injectable()
export class StorableTextInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() === 'http') {
      const request = context.switchToHttp().getRequest<Request>();
      assertStorableText(request.params, 'path');
      assertStorableText(request.query, 'query');
      assertStorableText(request.body, 'body');
    }
    return next.handle();
  }
}
