/** The QR content types: validation of request content and the string each type encodes. */
export { QR_TYPES, isQrType } from './qr-types';
export type { QrType } from './qr-types';
export { checkContent } from './check-content';
export type { ContentCheck, ContentCheckOptions } from './check-content';
export { MAX_URL_LENGTH, normaliseRedirectTarget, redirectHostAliases, redirectTargetProblem } from '../../common/web/redirect-target';
export type { OwnHosts } from '../../common/web/redirect-target';
export { CONTENT_DTO_BY_TYPE } from './content-types';
export { mergeContent } from './merge-content';
