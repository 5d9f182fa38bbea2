import fc from 'fast-check';
import { redirectHostAliases } from '../../common/web/redirect-target';
import { ThreatKeySet } from '../feeds/threat-keys';
import { anyDestination, FUZZ_FEED, FUZZ_OWN_ORIGINS, FUZZ_SERVED_HOST, refusedDestination } from '../../../test/support/destination-arbitrary';
import { type DestinationPolicy, judgeDestination, screenDestination } from './destination-policy';

/**
 * The destination fuzz, pure: a destination of a refused class, however it is dressed up, is
 * never accepted; anything at all is screened without throwing, and what is accepted screens the
 * same again from its stored form. FUZZ_RUNS and FUZZ_SEED as in test/fuzz/api-fuzz.e2e-spec.ts;
 * test/fuzz/destination-fuzz.e2e-spec.ts sends the same through the API.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 1000);
const SEED = process.env.FUZZ_SEED !== undefined ? Number(process.env.FUZZ_SEED) : Math.floor(Math.random() * 2 ** 31);

const policy: DestinationPolicy = { ownHosts: redirectHostAliases(FUZZ_OWN_ORIGINS), allowRedirectChains: false, allowlist: new ThreatKeySet() };
const feed = new ThreatKeySet(FUZZ_FEED);
const lookups = { servedHosts: new Set([FUZZ_SERVED_HOST]), threatOf: (keys: readonly string[]) => feed.match(keys) };

function judge(url: unknown) {
  const screening = screenDestination(url, policy);
  return screening.ok ? judgeDestination(screening.destination, lookups) : screening;
}

describe(`destination fuzz (seed ${SEED}; replay with FUZZ_SEED=${SEED})`, () => {
  it('never accepts a destination of a refused class', () => {
    fc.assert(
      fc.property(refusedDestination, ([refusedClass, url]) => {
        const judged = judge(url);
        if (judged.ok) throw new Error(`accepted ${JSON.stringify(url)} (${refusedClass}) as ${judged.href}`);
      }),
      { numRuns: RUNS, seed: SEED },
    );
  });

  it('screens anything without throwing; an accepted destination is accepted again as stored', () => {
    fc.assert(
      fc.property(anyDestination, (input) => {
        const judged = judge(input);
        if (!judged.ok) return;
        const url = new URL(judged.href);
        expect(['http:', 'https:']).toContain(url.protocol);
        expect(url.username + url.password).toBe('');
        expect(judge(judged.href)).toEqual(judged);
      }),
      { numRuns: RUNS, seed: SEED },
    );
  });
});
