/**
 * Smart-link settings of a dynamic code (docs/smart-links.md): rules evaluated in order at every
 * scan, and the link controls (scan limit, password, UTM parameters). Stored as the API names them.
 */

export const RULE_DEVICES = ['mobile', 'tablet', 'desktop'] as const;
export const RULE_OSES = ['ios', 'android', 'windows', 'macos', 'linux', 'other'] as const;
export const RULE_BROWSERS = ['chrome', 'safari', 'firefox', 'edge', 'samsung', 'other'] as const;
export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export const UTM_FIELDS = ['source', 'medium', 'campaign', 'term', 'content'] as const;

export type RuleDevice = (typeof RULE_DEVICES)[number];
export type RuleOs = (typeof RULE_OSES)[number];
export type RuleBrowser = (typeof RULE_BROWSERS)[number];
export type Weekday = (typeof WEEKDAYS)[number];
export type UtmField = (typeof UTM_FIELDS)[number];

export const MAX_RULES = 20;
export const MIN_SPLIT_ARMS = 2;
export const MAX_SPLIT_ARMS = 10;
/** A code's own scan retention (scan_retention_days): at most ten years. */
export const MAX_SCAN_RETENTION_DAYS = 3650;
export const PASSWORD_LENGTH = { min: 4, max: 128 } as const;

export interface TimeCondition {
  /** ISO date-times: the rule holds from `from` (inclusive) until `to` (exclusive) */
  from?: string;
  to?: string;
  days?: Weekday[];
  /** local wall-clock times, "HH:MM"; `from` after `to` spans midnight */
  hours?: { from: string; to: string };
  /** IANA time zone of `days` and `hours`; default UTC */
  time_zone?: string;
}

export interface RuleConditions {
  device?: RuleDevice[];
  os?: RuleOs[];
  browser?: RuleBrowser[];
  /** language ranges ("de", "en-US") */
  language?: string[];
  /** ISO 3166-1 alpha-2 codes, upper case */
  country?: string[];
  time?: TimeCondition;
  /** query parameters the scanned URL must carry, with these values */
  query?: Record<string, string>;
  scans_below?: number;
}

export interface SplitArm {
  /** shown by analytics (by_arm) and the scan CSV */
  name?: string;
  url: string;
  weight: number;
}

/** A URL, the code's own landing page (`"content"`, non-url types), or an A/B split. */
export type RuleTarget = string | { split: SplitArm[] };

export const CONTENT_TARGET = 'content';

export interface LinkRule {
  /** shown by the resolver, analytics (by_rule) and the scan CSV */
  name?: string;
  conditions: RuleConditions;
  target: RuleTarget;
}

export type Utm = Partial<Record<UtmField, string>>;

/** The order in which a rule's conditions are evaluated, and the resolver names the first that failed. */
export const CONDITION_ORDER = ['query', 'time', 'country', 'device', 'os', 'browser', 'language', 'scans_below'] as const;
export type ConditionName = (typeof CONDITION_ORDER)[number];
