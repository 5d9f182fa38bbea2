export interface TextContent {
  text: string;
}

/** Plain text is shown as it is. */
export function encodeText(content: TextContent): string {
  return content.text;
}
