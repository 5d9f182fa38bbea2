import { CanActivate, ExecutionContext, Inject, Injectable, NotFoundException, UnauthorizedException } from '@nestjs/common';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { APP_CONFIG, AppConfig } from '../config/app-config';

/**
 * The admin API answers only to X-Admin-Token = ADMIN_TOKEN, compared in constant time (digests of
 * equal length). With ADMIN_TOKEN unset the admin API does not exist: 404, like any unknown route.
 */
@Injectable()
export class AdminTokenGuard implements CanActivate {
  private readonly expected: Buffer | null;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.expected = config.adminToken ? digest(config.adminToken) : null;
  }

  canActivate(context: ExecutionContext): boolean {
    if (!this.expected) throw new NotFoundException('Not found');
    const header = context.switchToHttp().getRequest<FastifyRequest>().headers['x-admin-token'];
    if (typeof header !== 'string' || !timingSafeEqual(digest(header), this.expected)) {
      throw new UnauthorizedException('Invalid admin token');
    }
    return true;
  }
}

const digest = (value: string) => createHash('sha256').update(value).digest();
