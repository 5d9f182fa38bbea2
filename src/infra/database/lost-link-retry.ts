import { errorChain } from './error-chain';
import type { RawQueryRunner } from './kysely-over-prisma';

/**
 * The link watchdog's reasons for cutting a link whose database still answers on fresh links: the
 * query's own link died (a NAT or firewall dropped it), or it was an idle link opened before such a
 * failure. Not "database unreachable" nor "no answer within the hard limit": those fail as they are.
 */
const LOST_LINK = /Database link cut: (answer lost on a dead link|its backend is gone|closed with the links that died)/;

export function isLostLink(error: unknown): boolean {
  return errorChain(error).some((link) => typeof link.message === 'string' && LOST_LINK.test(link.message));
}

/**
 * Runs each read once more when its link turned out dead while the database answers: pooled links
 * opened before a network failure die one by one as they are used, and a read (which changes
 * nothing) can simply go again on a fresh one instead of answering 503 after the database is back.
 * For reads only: a write whose answer was lost may have committed.
 */
export function retryingLostLinks(runner: RawQueryRunner): RawQueryRunner {
  const once = async <T>(run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      if (!isLostLink(error)) throw error;
      return run();
    }
  };
  return {
    $queryRawUnsafe: <T>(query: string, ...values: unknown[]) => once(() => runner.$queryRawUnsafe<T>(query, ...values)),
    $executeRawUnsafe: (query: string, ...values: unknown[]) => once(() => runner.$executeRawUnsafe(query, ...values)),
  };
}
