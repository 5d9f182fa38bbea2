import type { LinkTarget, ServedDecision } from '../smart-links';
import type { LandingFile } from './landing/landing-page';

/**
 * An answer of the redirect host. A served link's answer names its scan: the link (`scanOf`) and
 * the decision that served it (its rule and arm), recorded once the answer has been sent.
 */
export type RedirectAnswer =
  | { kind: 'redirect'; location: string; scanOf?: LinkTarget; decision?: ServedDecision; status?: 302 | 303; cookie?: string }
  | { kind: 'page'; status: 200 | 403 | 404 | 410 | 429; html: string | Buffer; scanOf?: LinkTarget; decision?: ServedDecision; csp?: string }
  | { kind: 'file'; file: LandingFile };
