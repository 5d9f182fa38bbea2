import type { RuleMiss, RuleOutcome, ScanFacts } from './settings/link-rules-evaluator';
import { withUtm } from './settings/utm';
import { type LinkDecision, type LinkTarget, linkStatus, type ServedDecision } from './link-target';

export interface DecisionOptions {
  /** the scan carries a valid password cookie for this link (or the link has none) */
  passwordAccepted: boolean;
  /** collect, for each rule before the match, the first condition that failed (the resolver) */
  explain?: boolean;
}

/**
 * The one decision of a scan (docs/smart-links.md#order): the link's state first (unknown, paused,
 * expired), then its password, then its rules; the target's UTM parameters last. One function for
 * the redirect host and the dry-run resolver, so the two cannot disagree.
 */
export function decideLink(target: LinkTarget | null, facts: ScanFacts, options: DecisionOptions): { decision: LinkDecision; misses: RuleMiss[] } {
  const none: RuleMiss[] = [];
  if (!target) return { decision: { kind: 'not_found' }, misses: none };
  const status = linkStatus(target, facts.at);
  if (status === 'paused') return { decision: { kind: 'paused' }, misses: none };
  if (status === 'expired') return { decision: { kind: 'expired' }, misses: none };
  if (target.passwordHash !== null && !options.passwordAccepted) return { decision: { kind: 'password_required' }, misses: none };

  let outcome: RuleOutcome | null = null;
  let misses = none;
  if (target.rules && options.explain) {
    const explained = target.rules.explain(facts);
    outcome = explained;
    misses = explained.misses;
  } else if (target.rules) outcome = target.rules.evaluate(facts);
  const ruleIndex = outcome?.ruleIndex ?? null;
  if (outcome?.refused) return { decision: { kind: 'refused', ruleIndex }, misses };
  if (outcome?.url) {
    return { decision: { kind: 'redirect', location: withUtm(outcome.url, target.utm), ruleIndex, armIndex: outcome.armIndex }, misses };
  }
  if (target.type !== 'url') return { decision: { kind: 'page', ruleIndex }, misses };
  if (!target.safeLocation) return { decision: { kind: 'refused', ruleIndex }, misses };
  return { decision: { kind: 'redirect', location: withUtm(target.safeLocation, target.utm), ruleIndex, armIndex: null }, misses };
}

/** What a link without rules is never asked: the visit's facts (steadyDecision decides without a visit). */
const NO_VISIT: ScanFacts = {
  at: 0,
  query: {},
  acceptLanguage: null,
  country: null,
  traits: () => {
    throw new Error("a link without rules asked for the visitor's agent");
  },
  visitorHash: () => {
    throw new Error('a link without rules asked for the visitor hash');
  },
};

/**
 * The decision every visit of a live `target` gets when nothing of the visit can change it (no
 * rules, no password, no scan limit: most links), made once as the link is loaded, so that the
 * redirect host reads no facts of such a visit; null when each visit must be decided (and for a
 * refused target). Made by
 * decideLink itself, so the two cannot disagree; the link's state (paused, expired) is still read
 * at each visit.
 */
export function steadyDecision(target: LinkTarget): ServedDecision | null {
  if (target.rules !== null || target.passwordHash !== null || target.maxScans !== null) return null;
  const { decision } = decideLink({ ...target, status: 'active', expiresAt: null }, NO_VISIT, { passwordAccepted: true });
  // A refused target is answered per visit, by the common path.
  return decision.kind === 'redirect' || decision.kind === 'page' ? decision : null;
}
