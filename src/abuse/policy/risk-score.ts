import { domainToUnicode } from 'node:url';
import { parse as parseDomain } from 'tldts';
import { ABUSED_TLDS } from './abused-tlds';
import { IMITATED_BRANDS, type ImitatedBrand } from './imitated-brands';

/**
 * The `risk` of a destination (docs/abuse-handling.md#risk): signs that are common in phishing but
 * not certain, each worth points, summed and capped at 100. A code's risk is the highest of its
 * destinations'; at RISK_WARN_THRESHOLD (default 70) its link shows a warning before it
 * continues. No sign alone reaches 70: a lookalike of a brand must come with a second sign. Pure.
 */

export type RiskSign = 'brand_lookalike' | 'abused_tld' | 'deep_subdomains' | 'ip_address' | 'nested_url' | 'unusual_port' | 'many_hyphens';

export interface RiskFinding {
  sign: RiskSign;
  points: number;
  /** what was seen, for the warning page and the operator: `looks like paypal` */
  detail: string;
}

export interface RiskAssessment {
  score: number;
  findings: RiskFinding[];
}

export const RISK_POINTS: Record<RiskSign, number> = {
  brand_lookalike: 50,
  abused_tld: 25,
  deep_subdomains: 20,
  ip_address: 30,
  nested_url: 15,
  unusual_port: 10,
  many_hyphens: 10,
};

/** Subdomain labels (left of the registrable domain) from which a host counts as deep. */
const DEEP_SUBDOMAINS = 4;
const MANY_HYPHENS = 3;

export interface RiskInput {
  /** the parsed destination (WHATWG URL: punycode host) */
  url: URL;
  /** the host as compared (comparableHost) */
  host: string;
  /** its Unicode form */
  unicodeHost: string;
  /** whether a query parameter carries another absolute URL */
  carriesUrl: boolean;
}

export function assessRisk(input: RiskInput): RiskAssessment {
  const findings: RiskFinding[] = [];
  const add = (sign: RiskSign, detail: string) => findings.push({ sign, points: RISK_POINTS[sign], detail });
  const domain = parseDomain(input.host);
  if (domain.isIp) add('ip_address', `the host is the IP address ${input.host}`);
  const tld = input.host.slice(input.host.lastIndexOf('.') + 1);
  if (!domain.isIp && ABUSED_TLDS.has(tld)) add('abused_tld', `the top-level domain .${tld} is often used for phishing`);
  const subdomains = domain.subdomain ? domain.subdomain.split('.').length : 0;
  if (subdomains >= DEEP_SUBDOMAINS) add('deep_subdomains', `the host has ${subdomains} levels of subdomains`);
  // Counted on the Unicode form: punycode's own `xn--` and separator are not the name's.
  const hyphens = (domainToUnicode(domain.domainWithoutSuffix ?? '') || '').split('-').length - 1;
  if (hyphens >= MANY_HYPHENS) add('many_hyphens', `the domain name has ${hyphens} hyphens`);
  if (input.url.port !== '') add('unusual_port', `the link uses port ${input.url.port}`);
  if (input.carriesUrl) add('nested_url', 'the link carries another link in its query');
  const brand = domain.isIp ? null : imitatedBrand(input.host, input.unicodeHost, domain.domain, domain.publicSuffix);
  if (brand) add('brand_lookalike', `the host looks like ${brand} but is not one of its domains`);
  return {
    score: Math.min(
      100,
      findings.reduce((sum, finding) => sum + finding.points, 0),
    ),
    findings,
  };
}

/** Latin letters that other scripts (and digits) imitate in hosts; the rest of TR #39's table is rarer in phishing. */
// prettier-ignore
const LOOKALIKES: Record<string, string> = {
  'а': 'a', 'е': 'e', 'о': 'o', 'р': 'p', 'с': 'c', 'у': 'y', 'х': 'x', 'і': 'i', 'ј': 'j', 'ӏ': 'l', 'ѕ': 's', 'ԁ': 'd',
  'һ': 'h', 'ԛ': 'q', 'ԝ': 'w', 'ɡ': 'g', 'ο': 'o', 'α': 'a', 'ν': 'v', 'ι': 'i', 'κ': 'k', 'τ': 't', 'ρ': 'p', 'ε': 'e',
  '0': 'o', '1': 'l', '3': 'e', '5': 's', 'ı': 'i',
};

/** What a label reads as to a hurried eye: accents dropped, lookalike letters and digits replaced, `rn` as `m`, `vv` as `w`. */
export function skeleton(text: string): string {
  const plain = text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
  return [...plain]
    .map((char) => LOOKALIKES[char] ?? char)
    .join('')
    .replace(/rn/g, 'm')
    .replace(/vv/g, 'w');
}

/** The brand name the host borrows outside the brand's own domains, or null. */
function imitatedBrand(host: string, unicodeHost: string, registrable: string | null, suffix: string | null): string | null {
  const parts = unicodeHost.split(/[.-]/).map(skeleton);
  const joined = parts.join('');
  for (const brand of IMITATED_BRANDS) {
    if (isBrandsOwn(brand, host, registrable, suffix)) continue;
    for (const name of brand.names) {
      const borrowed = parts.includes(name) || (name.length >= 6 && (joined.includes(name) || parts.some((part) => withinOneEdit(part, name))));
      if (borrowed) return name;
    }
  }
  return null;
}

function isBrandsOwn(brand: ImitatedBrand, host: string, registrable: string | null, suffix: string | null): boolean {
  if (registrable !== null && brand.domains.includes(registrable)) return true;
  // paypal.de, amazon.co.uk: the brand's name under a country's domain (not under an abused one such as .tk).
  const label = registrable?.slice(0, registrable.indexOf('.')) ?? '';
  const country = suffix !== null && /(^|\.)[a-z]{2}$/.test(suffix) && !ABUSED_TLDS.has(suffix.slice(suffix.lastIndexOf('.') + 1));
  return country && brand.names.includes(label) && host.endsWith(registrable!);
}

/** Whether `a` becomes `b` by one insertion, deletion, substitution or swap of neighbours (not when equal). */
export function withinOneEdit(a: string, b: string): boolean {
  if (a === b || Math.abs(a.length - b.length) > 1) return false;
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length - 1;
  let endB = b.length - 1;
  while (endA >= start && endB >= start && a[endA] === b[endB]) {
    endA--;
    endB--;
  }
  const restA = endA - start + 1;
  const restB = endB - start + 1;
  if (restA <= 1 && restB <= 1) return true;
  return restA === 2 && restB === 2 && a[start] === b[start + 1] && a[start + 1] === b[start];
}
