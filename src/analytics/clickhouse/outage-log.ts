import type { Logger } from '@nestjs/common';

/** A ClickHouse worker's failures, logged once when they start and once when they end (not at every retry). */
export class OutageLog {
  /** The failure being reported, or null. */
  private outage: string | null = null;

  constructor(
    private readonly logger: Logger,
    private readonly work: 'export' | 'erasures',
  ) {}

  failing(message: string): void {
    if (this.outage === null)
      this.logger.warn(
        `ClickHouse ${this.work} failing, retrying with backoff (nothing is lost; analytics read PostgreSQL while it lags): ${message}`,
      );
    this.outage = message;
  }

  recovered(): void {
    if (this.outage === null) return;
    this.logger.log(`ClickHouse ${this.work} resumed`);
    this.outage = null;
  }

  debug(message: string): void {
    this.logger.debug(message);
  }
}
