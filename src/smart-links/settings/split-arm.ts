import { createHash } from 'node:crypto';
import type { SplitArm } from './link-settings';

/**
 * The arm of a split for one visitor: a point in [0, total weight) drawn from the visitor hash (which
 * changes every UTC day: docs/scans-and-privacy.md) and the rule's place, so a visitor keeps one
 * arm for the day, and arms get visitors in proportion to their weights.
 */
export function splitArmFor(arms: readonly SplitArm[], visitorHash: string, codeId: string, ruleIndex: number): number {
  const total = arms.reduce((sum, arm) => sum + arm.weight, 0);
  const digest = createHash('sha256').update(`${visitorHash}\n${codeId}\n${ruleIndex}`).digest();
  // 48 bits of the digest: uniform enough that the bias of the modulo (total ≤ 1,000) is below 10^-11.
  let point = digest.readUIntBE(0, 6) % total;
  for (let index = 0; index < arms.length; index++) {
    point -= arms[index].weight;
    if (point < 0) return index;
  }
  return arms.length - 1;
}
