import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { Observable } from 'rxjs';
import type { AuthenticatedRequest } from '@platform/auth';
import { countIo, runInRequestContext, type RequestContext, type RequestWithId } from '@platform/common';
import type { MessageContext } from '@platform/messaging';

function contextOf(execution: ExecutionContext): RequestContext | undefined {
  if (execution.getType() === 'http') {
    const request = execution.switchToHttp().getRequest<RequestWithId & AuthenticatedRequest>();
    return request.id ? { requestId: request.id, actor: request.principal?.subject } : undefined;
  }
  if (execution.getType() === 'rpc') {
    const context = execution.switchToRpc().getData<{ context?: MessageContext } | null>()?.context;
    return typeof context?.requestId === 'string' && context.requestId ? { requestId: context.requestId, actor: context.actor } : undefined;
  }
  return undefined;
}

/**
 * Runs every handler, HTTP and message alike, in its request's context: the caller's request id
 * and actor then reach the logs and every message the handler sends, with no parameter passing.
 */
@Injectable()
export class RequestContextInterceptor implements NestInterceptor {
  intercept(execution: ExecutionContext, next: CallHandler): Observable<unknown> {
    const context = contextOf(execution);
    // Tests only: a request or event this process's handlers took, for the request that sent it.
    if (execution.getType() === 'rpc') countIo('nats.received', 1, context?.requestId);
    if (!context) return next.handle();
    return new Observable((subscriber) => runInRequestContext(context, () => next.handle().subscribe(subscriber)));
  }
}
