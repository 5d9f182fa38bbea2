import { SkipThrottle } from '@nestjs/throttler';
import { READ_BUDGET, WRITE_BUDGET } from './account-throttler.guard';

/** Routes outside the API-key budgets (redirect host, health, metrics, admin). */
export const SkipRateLimit = () => SkipThrottle({ [WRITE_BUDGET]: true, [READ_BUDGET]: true });
