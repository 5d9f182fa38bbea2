/**
 * The public entry of the scan pipeline for the modules above it (src/module-dependencies.spec.ts):
 * the redirect host reaches scans only through this file.
 */
export { ScansModule } from './scans.module';
export { ScanBuffer } from './scan-buffer.service';
export { clipHeader } from './scan-event';
export { GeoLocator, type GeoPlace, UNKNOWN_PLACE } from './geo/geo-locator';
export { type KnownAgent, KnownAgents } from './known-agents';
export { VisitorHasher } from './visitor-hash';
