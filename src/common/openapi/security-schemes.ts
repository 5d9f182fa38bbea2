/** Names of the OpenAPI security schemes (the document defines them; controllers refer to them). */
export const API_KEY_SCHEME = 'api-key';
export const ADMIN_TOKEN_SCHEME = 'admin-token';
