/**
 * The public entry of smart links for the modules above (src/module-dependencies.spec.ts): the
 * redirect host reaches them only through this file.
 */
export { SmartLinksModule } from './smart-links.module';
export { LinkDecisions, type VisitDecision } from './link-decisions.service';
export { LinkPasswordGate, PASSWORD_ATTEMPTS } from './link-password-gate';
export { type LinkDecision, type LinkTarget, linkStatus, type ServedDecision } from './link-target';
export type { Visit } from './visit';
export { VisitFactsReader } from './visit-facts';
