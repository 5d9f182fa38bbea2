import { preferredLanguage, preferredLanguageIn } from './accept-language';
import type { AgentTraits } from './agent-traits';
import { CONTENT_TARGET, type ConditionName, type LinkRule, type RuleConditions, type SplitArm, type TimeCondition } from './link-settings';
import { splitArmFor } from './split-arm';
import { minutesOf, wallClockAt, type WallClock } from './zoned-clock';

/**
 * What a scan brings to the rules (docs/smart-links.md#rules). Read lazily: a fact no condition
 * of the code asks for is never computed (the user agent's traits, the visitor hash).
 */
export interface ScanFacts {
  /** epoch milliseconds */
  at: number;
  /** the parsed query of the scanned URL (`/r/<code>?src=poster`) */
  query: Readonly<Record<string, string | string[] | undefined>>;
  acceptLanguage: string | null;
  /** ISO 3166-1 alpha-2, upper case, or null when unknown */
  country: string | null;
  traits(): AgentTraits;
  /** the visitor hash of the scan (its UTC day's), for the split's arm */
  visitorHash(): string;
  /** the code's exact scan count; asked only of codes with a scans_below condition (CompiledRules.needsScanCount) */
  scanCount?: number;
}

type Check = (facts: ScanFacts, memo: FactMemo) => boolean;

interface CompiledRule {
  name: string | null;
  checks: Array<{ condition: ConditionName; holds: Check }>;
  target: { kind: 'url'; url: string } | { kind: 'content' } | { kind: 'split'; arms: SplitArm[] } | { kind: 'refused' };
}

/** What the rules chose for a scan: a URL, the code's own content (its target or landing page), with the rule and arm that chose it. */
export interface RuleOutcome {
  /** the matching rule's index, or null when none matched (the code's own content) */
  ruleIndex: number | null;
  armIndex: number | null;
  /** the URL a matched rule sends to, or null for the code's own content */
  url: string | null;
  /** the matched rule's URL is no longer a safe target (checked again as the link is loaded): never followed */
  refused?: boolean;
}

/** For the resolver: a rule before the match, and its first condition that did not hold (in CONDITION_ORDER). */
export interface RuleMiss {
  rule: number;
  name: string | null;
  failed: ConditionName;
}

/** Facts derived once per evaluation, shared by the rules that ask (the preferred language, the agent's traits). */
class FactMemo {
  private language?: string | null;
  private traits?: AgentTraits;

  constructor(private readonly facts: ScanFacts) {}

  preferredLanguage(): string | null {
    if (this.language === undefined) this.language = preferredLanguage(this.facts.acceptLanguage);
    return this.language;
  }

  /** wallClockAt keeps each zone's reading for the minute already: no copy here. */
  wallClock(timeZone: string): WallClock {
    return wallClockAt(this.facts.at, timeZone);
  }

  agentTraits(): AgentTraits {
    return (this.traits ??= this.facts.traits());
  }
}

/**
 * A code's rules made ready to evaluate: compiled once per link version (kept with the link in the
 * near cache), evaluated at every scan by the redirect host and by the dry-run resolver alike.
 */
export class CompiledRules {
  private readonly rules: CompiledRule[];
  /** Whether a rule asks for the code's scan count (scans_below): the redirect reads it before evaluating. */
  readonly needsScanCount: boolean;

  /** `followable`: whether a rule's URL is still a safe target; a rule whose URL is not answers "refused" when it matches. */
  constructor(
    rules: readonly LinkRule[],
    private readonly codeId: string,
    followable: (url: string) => boolean = () => true,
  ) {
    this.rules = rules.map((rule) => compileRule(rule, followable));
    this.needsScanCount = rules.some((rule) => rule.conditions.scans_below !== undefined);
  }

  get size(): number {
    return this.rules.length;
  }

  /** The first rule whose every condition holds, in order; none: the code's own content. */
  evaluate(facts: ScanFacts): RuleOutcome {
    return this.run(facts, null);
  }

  /** As evaluate, and for each rule before the match the first condition that did not hold. */
  explain(facts: ScanFacts): RuleOutcome & { misses: RuleMiss[] } {
    const misses: RuleMiss[] = [];
    return { ...this.run(facts, misses), misses };
  }

  private run(facts: ScanFacts, misses: RuleMiss[] | null): RuleOutcome {
    const memo = new FactMemo(facts);
    for (let index = 0; index < this.rules.length; index++) {
      const rule = this.rules[index];
      const failed = firstFailed(rule.checks, facts, memo);
      if (failed) {
        misses?.push({ rule: index, name: rule.name, failed: failed.condition });
        continue;
      }
      const { target } = rule;
      if (target.kind === 'refused') return { ruleIndex: index, armIndex: null, url: null, refused: true };
      if (target.kind === 'url') return { ruleIndex: index, armIndex: null, url: target.url };
      if (target.kind === 'content') return { ruleIndex: index, armIndex: null, url: null };
      const arm = splitArmFor(target.arms, facts.visitorHash(), this.codeId, index);
      return { ruleIndex: index, armIndex: arm, url: target.arms[arm].url };
    }
    return { ruleIndex: null, armIndex: null, url: null };
  }
}

/** The first check that does not hold (a loop, not `find`: this runs for every rule of every scan). */
function firstFailed(checks: CompiledRule['checks'], facts: ScanFacts, memo: FactMemo): CompiledRule['checks'][number] | undefined {
  for (let i = 0; i < checks.length; i++) if (!checks[i].holds(facts, memo)) return checks[i];
  return undefined;
}

function compileRule(rule: LinkRule, followable: (url: string) => boolean): CompiledRule {
  return { name: rule.name ?? null, checks: compileConditions(rule.conditions), target: compileTarget(rule.target, followable) };
}

function compileTarget(target: LinkRule['target'], followable: (url: string) => boolean): CompiledRule['target'] {
  if (target === CONTENT_TARGET) return { kind: 'content' };
  if (typeof target === 'string') return followable(target) ? { kind: 'url', url: target } : { kind: 'refused' };
  return target.split.every((arm) => followable(arm.url)) ? { kind: 'split', arms: target.split } : { kind: 'refused' };
}

/** One check per condition, in CONDITION_ORDER (cheapest and most selective first). */
function compileConditions(conditions: RuleConditions): CompiledRule['checks'] {
  const checks: CompiledRule['checks'] = [];
  const { query, time, country, device, os, browser, language, scans_below: scansBelow } = conditions;
  if (query) {
    const pairs = Object.entries(query);
    checks.push({
      condition: 'query',
      holds: (facts) =>
        pairs.every(([name, expected]) => {
          const value = facts.query[name];
          return Array.isArray(value) ? value.includes(expected) : value === expected;
        }),
    });
  }
  if (time) checks.push({ condition: 'time', holds: compileTime(time) });
  if (country) {
    const allowed = new Set(country);
    checks.push({ condition: 'country', holds: (facts) => facts.country !== null && allowed.has(facts.country) });
  }
  if (device) {
    const allowed = new Set<string>(device);
    checks.push({ condition: 'device', holds: (_facts, memo) => allowed.has(memo.agentTraits().device ?? '') });
  }
  if (os) {
    const allowed = new Set<string>(os);
    checks.push({ condition: 'os', holds: (_facts, memo) => allowed.has(memo.agentTraits().os) });
  }
  if (browser) {
    const allowed = new Set<string>(browser);
    checks.push({ condition: 'browser', holds: (_facts, memo) => allowed.has(memo.agentTraits().browser) });
  }
  if (language) checks.push({ condition: 'language', holds: (_facts, memo) => preferredLanguageIn(memo.preferredLanguage(), language) });
  if (scansBelow !== undefined) checks.push({ condition: 'scans_below', holds: (facts) => (facts.scanCount ?? 0) < scansBelow });
  return checks;
}

function compileTime(time: TimeCondition): Check {
  const from = time.from === undefined ? -Infinity : Date.parse(time.from);
  const to = time.to === undefined ? Infinity : Date.parse(time.to);
  const zone = time.time_zone ?? 'UTC';
  const days = time.days ? new Set<string>(time.days) : null;
  const start = time.hours ? (minutesOf(time.hours.from) as number) : null;
  const end = time.hours ? (minutesOf(time.hours.to) as number) : null;
  return (facts, memo) => {
    if (facts.at < from || facts.at >= to) return false;
    if (!days && start === null) return true;
    const clock = memo.wallClock(zone);
    if (days && !days.has(clock.weekday)) return false;
    if (start === null || end === null) return true;
    // A window whose end comes before its start spans midnight (22:00-06:00).
    return start < end ? clock.minutes >= start && clock.minutes < end : clock.minutes >= start || clock.minutes < end;
  };
}
