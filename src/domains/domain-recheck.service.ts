import { Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK, type Clock } from '../common/time/clock';
import { AuditTrail } from '../infra/audit/audit-trail';
import { Database } from '../infra/database/database.service';
import { HOUR_MS, JobRunner } from '../infra/jobs/job-runner.service';
import { type DomainChanged, DomainEvents } from './domain-events';
import { type DomainRecord, verificationName } from './domain.record';
import { DomainsRepository } from './domains.repository';
import { DomainsService, verificationProblem } from './domains.service';
import { DnsTxtLookup } from './dns-txt-lookup';

/** A served domain is re-checked once a day. */
export const RECHECK_INTERVAL_MS = 24 * HOUR_MS;
/** Failed checks this long in a row turn a verified domain failing (it keeps serving). */
export const FAILING_AFTER_MS = 7 * 24 * HOUR_MS;
/** How many domains one round of the hourly sweep checks. */
const SWEEP_BATCH = 100;

/**
 * The daily re-check of served domains (docs/domains-and-tls.md#re-checks): the TXT record still
 * there keeps (or makes again) a domain verified; missing for 7 days, it turns `failing` and the
 * account's `domain.failing` webhook is sent. A lookup that fails (resolver down, timeout) proves
 * nothing either way and counts as neither. The sweep is an hourly periodic task of the job runner
 * (once per cluster, docs/architecture.md#jobs); a domain is marked checked as it is claimed, so a
 * sweep taken over after its instance died passes the ones already done.
 */
@Injectable()
export class DomainRecheck {
  private readonly logger = new Logger('DomainRecheck');

  constructor(
    private readonly domains: DomainsRepository,
    private readonly service: DomainsService,
    private readonly database: Database,
    private readonly audit: AuditTrail,
    private readonly events: DomainEvents,
    private readonly dns: DnsTxtLookup,
    @Inject(CLOCK) private readonly clock: Clock,
    runner: JobRunner,
  ) {
    runner.periodic({ name: 'domain-recheck', everyMs: HOUR_MS, run: async (run) => void (await this.sweep(run.stopRequested)) });
  }

  /** Re-checks every domain due (last checked a day ago or more); returns how many it checked. */
  async sweep(stopRequested: () => boolean = () => false): Promise<number> {
    let total = 0;
    while (!stopRequested()) {
      const now = this.clock.now();
      const due = await this.domains.claimDue(new Date(now.getTime() - RECHECK_INTERVAL_MS), now, SWEEP_BATCH);
      for (const domain of due) await this.recheck(domain, now);
      total += due.length;
      if (due.length < SWEEP_BATCH) return total;
    }
    return total;
  }

  private async recheck(domain: DomainRecord, now: Date): Promise<void> {
    const answer = await this.dns.txt(verificationName(domain.hostname));
    if (answer.kind === 'failed') {
      this.logger.warn(`Re-check of ${domain.hostname} proved nothing (${answer.reason}); tried again in a day`);
      return;
    }
    if (!verificationProblem(domain, answer)) {
      const change = await this.service.markVerified(domain);
      if (change) await this.events.publishCommitted(change);
      return;
    }
    const change = await this.database.transaction(async (tx) => {
      const failingSince = domain.checkFailingSince ?? now;
      const turnsFailing = domain.status === 'verified' && now.getTime() - failingSince.getTime() >= FAILING_AFTER_MS;
      const after = await this.domains.recordFailedCheck(tx, domain, now, turnsFailing ? 'failing' : domain.status);
      if (!turnsFailing) return null;
      await this.audit.record(tx, {
        accountId: domain.accountId,
        action: 'domain.failing',
        resourceType: 'domain',
        resourceId: domain.id,
        before: { status: domain.status },
        after: { status: after.status },
      });
      const failing: DomainChanged = { kind: 'failing', accountId: domain.accountId, domain: after };
      await this.events.recordInTransaction(tx, failing);
      return failing;
    });
    if (change) await this.events.publishCommitted(change);
  }
}
