import { renderQrSvg } from '../../rendering/render-qr-svg';
import { encodeWifi, type WifiContent } from '../../qrcodes/content/wifi.encoder';
import { escapeHtml } from './html';
import { icon } from './icons';
import { landingDocument } from './page-document';
import { copyField, rows } from './page-parts';

const SECURITY_LABELS: Record<string, string> = { WPA: 'WPA / WPA2 / WPA3', WEP: 'WEP', nopass: 'None (open network)' };

/**
 * A Wi-Fi network: its name, security, the password in a field to copy, how to join on an iPhone
 * and on Android, and the network's own QR code, so a second phone can join from this screen.
 * No phone lets a web page join a network, so the page has no join button.
 */
export function wifiPage(content: WifiContent): string {
  const open = content.encryption === 'nopass' || content.password === undefined || content.password === '';
  const hidden = content.hidden === true;
  const name = `“${content.ssid}”`;
  const passwordStep = open ? '' : ' and enter the password';
  const steps = hidden
    ? [
        `<b>iPhone:</b> Settings › Wi-Fi › Other…, type the name ${escapeHtml(name)}${passwordStep}.`,
        `<b>Android:</b> Settings › Network › Wi-Fi › Add network, type the name ${escapeHtml(name)}${passwordStep}.`,
      ]
    : [
        `<b>iPhone:</b> Settings › Wi-Fi, choose ${escapeHtml(name)}${passwordStep}.`,
        `<b>Android:</b> Settings › Network › Wi-Fi, choose ${escapeHtml(name)}${passwordStep}.`,
      ];
  const qrSvg = renderQrSvg({ text: encodeWifi(content), style: {}, size: 184 });

  return landingDocument({
    title: content.ssid,
    kind: 'Wi-Fi network',
    badgeHtml: icon('wifi'),
    heading: content.ssid,
    ...(hidden ? { subHtml: 'Hidden network: add it by name' } : {}),
    bodyHtml:
      (open
        ? '<p class="message">No password needed.</p>'
        : copyField({
            id: 'password',
            label: 'Password',
            value: content.password ?? '',
            secret: true,
            hint: 'Press and hold, or select it, to copy.',
          })) +
      rows([{ label: 'Security', valueHtml: escapeHtml(SECURITY_LABELS[content.encryption] ?? content.encryption) }]) +
      `<ul class="steps">${steps.map((step) => `<li>${step}</li>`).join('')}</ul>` +
      `<figure><div class="qr" role="img" aria-label="${escapeHtml(`QR code to join ${content.ssid}`)}">${qrSvg}</div>` +
      '<figcaption>Another phone can join by scanning this code with its camera.</figcaption></figure>',
  });
}
