import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { map, Observable } from 'rxjs';

/** Adds `request_id` to every JSON object a handler returns. */
@Injectable()
export class RequestIdInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    return next.handle().pipe(
      map((data: unknown) =>
        data !== null && typeof data === 'object' && !Buffer.isBuffer(data) && !Array.isArray(data)
          ? { ...data, request_id: request.id }
          : data,
      ),
    );
  }
}
