/**
 * Top-level domains that carry a disproportionate share of phishing and malware domains, after
 * the Interisle "Phishing Landscape" reports (2022-2024) and Spamhaus' "most abused TLDs" list.
 * A destination under one raises its `risk` (docs/abuse-handling.md#risk); it is never refused
 * for that alone: most sites there are ordinary. Kept by hand.
 */
// prettier-ignore
export const ABUSED_TLDS: ReadonlySet<string> = new Set([
  'bond', 'buzz', 'cam', 'cf', 'cfd', 'click', 'country', 'cyou', 'ga', 'gdn', 'gq', 'icu', 'kim', 'link', 'live',
  'lol', 'ml', 'mom', 'monster', 'quest', 'rest', 'sbs', 'shop', 'support', 'surf', 'tk', 'top', 'work', 'xin', 'xyz', 'zip',
]);
