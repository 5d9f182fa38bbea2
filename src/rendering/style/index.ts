export * from './qr-style';
export { checkStyle, MAX_STYLE_ERRORS } from './check-style';
export type { StyleCheck } from './check-style';
export { MAX_LOGO_BYTES } from './logo-data-uri';
export { LOGO_SAFETY_FACTOR, MIN_CONTRAST_RATIO } from './scannability';
