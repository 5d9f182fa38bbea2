import type { QrCodeRecord } from '../qrcodes/qr-code.record';

type LinkRules = QrCodeRecord['rules'];

/** The names owners gave a code's smart-link rules and A/B arms (docs/smart-links.md#names), looked up by index. */
export interface RuleNames {
  rule(index: number): string | null;
  arm(rule: number, arm: number): string | null;
}

/**
 * Names of the rules (and their split arms) as the code holds them now: a scan recorded the index
 * of the rule and arm that answered it, and is shown with the name that index carries today (an
 * index past the rules, or a rule or arm without a name, has none).
 */
export function ruleNamesOf(rules: LinkRules | null): RuleNames {
  const list = rules ?? [];
  return {
    rule: (index) => list[index]?.name ?? null,
    arm: (rule, arm) => {
      const target = list[rule]?.target;
      return typeof target === 'object' && target !== null ? (target.split[arm]?.name ?? null) : null;
    },
  };
}
