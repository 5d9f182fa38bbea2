import { isbot } from 'isbot';
import { createLru } from '../../infra/cache/lru';

/** Distinct user agents whose verdict is remembered: scans repeat a few device and browser versions. */
const REMEMBERED_AGENTS = 5000;
const DAY_MS = 86_400_000;

/**
 * Known link-preview bots and crawlers (isbot's list), with each user agent's verdict remembered:
 * isbot's pattern costs about 6 µs a phone user agent, on every scan.
 */
export class BotAgents {
  private readonly verdicts = createLru<boolean>({ max: REMEMBERED_AGENTS, ttl: DAY_MS });

  isBot(userAgent: string | null): boolean {
    if (!userAgent) return false;
    let verdict = this.verdicts.get(userAgent);
    if (verdict === undefined) {
      verdict = isbot(userAgent);
      this.verdicts.set(userAgent, verdict);
    }
    return verdict;
  }
}
