import { isbot } from 'isbot';
import { createLru } from '../infra/cache/lru';

/** Distinct user agents remembered: scans repeat a few device and browser versions. */
const REMEMBERED_AGENTS = 5000;
const DAY_MS = 86_400_000;

/** A user agent as first seen, and whether it is a link-preview bot or crawler (isbot's list). */
export interface KnownAgent {
  agent: string;
  isBot: boolean;
}

/**
 * The user agents of recent scans, each with its bot verdict: isbot's pattern costs about 6 µs a
 * phone user agent. A scan keeps the remembered copy of its user agent rather than its request's
 * own string: a recorded scan waits in memory for its batch (up to a hand-on), and thousands of
 * copies of the same few agents would survive into the older generation of the heap, which costs
 * the redirect more than the lookup (bench/README.md, "Where the redirect's time goes").
 */
export class KnownAgents {
  private readonly known = createLru<KnownAgent>({ max: REMEMBERED_AGENTS, ttl: DAY_MS });

  recognise(userAgent: string): KnownAgent {
    let known = this.known.get(userAgent);
    if (known === undefined) {
      known = { agent: userAgent, isBot: isbot(userAgent) };
      this.known.set(userAgent, known);
    }
    return known;
  }
}
