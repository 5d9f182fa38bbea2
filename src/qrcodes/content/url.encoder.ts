export interface UrlContent {
  url: string;
}

/** Scanner apps open a bare http(s) URL directly. */
export function encodeUrl(content: UrlContent): string {
  return content.url;
}
