export const WIFI_ENCRYPTIONS = ['WPA', 'WEP', 'nopass'] as const;
export type WifiEncryption = (typeof WIFI_ENCRYPTIONS)[number];

export interface WifiContent {
  ssid: string;
  /** absent exactly when encryption is nopass */
  password?: string;
  encryption: WifiEncryption;
  hidden?: boolean;
}

/**
 * The ZXing Wi-Fi network config form that phone cameras join from:
 * `WIFI:T:<encryption>;S:<ssid>;P:<password>;;`, with `H:true;` before the final `;` for a hidden
 * network and no `P:` field for an open one.
 */
export function encodeWifi(content: WifiContent): string {
  const fields = [`T:${content.encryption};`, `S:${escapeWifiValue(content.ssid)};`];
  if (content.encryption !== 'nopass' && content.password !== undefined) {
    fields.push(`P:${escapeWifiValue(content.password)};`);
  }
  if (content.hidden === true) fields.push('H:true;');
  return `WIFI:${fields.join('')};`;
}

/** `\`, `;`, `,`, `:` and `"` are the form's delimiters and quote, so a backslash escapes each. */
function escapeWifiValue(value: string): string {
  return value.replace(/[\\;,:"]/g, (character) => `\\${character}`);
}
