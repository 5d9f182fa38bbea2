import { Controller, Get, HttpException, HttpStatus, Inject, NotFoundException, Query } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public } from '../common/auth/public.decorator';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { hostnameOfOrigin, normaliseHostname } from './hostname';
import { SkipRateLimit } from '../infra/rate-limit/skip-rate-limit.decorator';
import { DomainHosts } from './domain-hosts.service';

/** Database lookups (cache misses) the ask answers per second per instance; more get 429 (Caddy then issues nothing). */
const LOOKUPS_PER_SECOND = 20;

/**
 * Caddy's on-demand TLS `ask` (docs/domains-and-tls.md#tls-on-demand): may a certificate be issued
 * for `domain`? 200 for the service's own hosts (BASE_URL's and REDIRECT_URL's: the printed codes
 * of the default redirect host must get one however Caddy is set up) and for a verified or failing
 * domain, 404 for anything else (a pending domain included). Only with TLS_ASK_ENABLED=1; only on the service's own hosts (a branded domain's
 * requests never reach the API: the host dispatch sends them to the redirect host). Answered from
 * the domain near cache; lookups that miss it are limited, so a flood of made-up SNI names cannot
 * flood the database.
 */
@ApiExcludeController()
@Public()
@SkipRateLimit()
@Controller('internal/tls')
export class TlsAskController {
  private readonly enabled: boolean;
  private readonly ownHostnames: string[];
  private windowStart = 0;
  private lookupsInWindow = 0;

  constructor(
    private readonly domains: DomainHosts,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.enabled = config.domains.tlsAskEnabled;
    this.ownHostnames = [config.baseUrl, config.redirectUrl].flatMap((origin) => hostnameOfOrigin(origin) ?? []);
  }

  @Get('ask')
  async ask(@Query('domain') domain: unknown): Promise<{ status: 'ok' }> {
    if (!this.enabled) throw new NotFoundException('Not Found');
    const check = normaliseHostname(domain);
    if (!check.ok) throw notServed();
    if (this.ownHostnames.includes(check.hostname)) return { status: 'ok' };
    let served = this.domains.cached(check.hostname);
    if (served === undefined) {
      if (!this.takeLookup()) throw new HttpException('Too many certificate checks; try again shortly', HttpStatus.TOO_MANY_REQUESTS);
      served = await this.domains.resolve(check.hostname);
    }
    if (!served?.served) throw notServed();
    return { status: 'ok' };
  }

  private takeLookup(): boolean {
    const now = Date.now();
    if (now - this.windowStart >= 1000) {
      this.windowStart = now;
      this.lookupsInWindow = 0;
    }
    return ++this.lookupsInWindow <= LOOKUPS_PER_SECOND;
  }
}

const notServed = () => new NotFoundException('No verified domain of this name');
