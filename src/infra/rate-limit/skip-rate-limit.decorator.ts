import { SetMetadata } from '@nestjs/common';

export const SKIP_RATE_LIMIT = 'rate-limit:skip';

/** Routes outside the API-key budgets (health, metrics, admin). */
export const SkipRateLimit = () => SetMetadata(SKIP_RATE_LIMIT, true);
