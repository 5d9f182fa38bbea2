import { decodeSvg } from '../../../test/support/decode-svg';
import { HOSTILE, parsePage, text } from './__fixtures__/hostile-page';
import { wifiPage } from './wifi-page';

describe('wifiPage', () => {
  it('shows the network, its security, the password in a read-only field, how to join, and a QR image that joins it', () => {
    const page = parsePage(wifiPage({ ssid: 'CafeNet', password: 'secret123', encryption: 'WPA' }));
    expect([text(page, '.kind'), text(page, 'h1'), text(page, '.sub')]).toEqual(['Wi-Fi network', 'CafeNet', null]);
    expect([page('input#password').val(), page('input#password').attr('readonly'), text(page, 'label[for="password"]')]).toEqual([
      'secret123',
      'readonly',
      'Password',
    ]);
    expect(text(page, '.row .value')).toBe('WPA / WPA2 / WPA3');
    expect(
      page('.steps li')
        .toArray()
        .map((step) => page(step).text()),
    ).toEqual([
      'iPhone: Settings › Wi-Fi, choose “CafeNet” and enter the password.',
      'Android: Settings › Network › Wi-Fi, choose “CafeNet” and enter the password.',
    ]);
    expect(page('.qr').attr('aria-label')).toBe('QR code to join CafeNet');
    expect(decodeSvg(page('.qr svg').prop('outerHTML')!)).toBe('WIFI:T:WPA;S:CafeNet;P:secret123;;');
  });

  it('a hidden open network: says so, asks for no password, tells how to add it by name', () => {
    const page = parsePage(wifiPage({ ssid: 'Back Office', encryption: 'nopass', hidden: true }));
    expect([text(page, '.sub'), text(page, '.message'), page('input').length]).toEqual(['Hidden network: add it by name', 'No password needed.', 0]);
    expect(text(page, '.row .value')).toBe('None (open network)');
    expect(text(page, '.steps')).toContain('Settings › Wi-Fi › Other…, type the name “Back Office”.');
    expect(decodeSvg(page('.qr svg').prop('outerHTML')!)).toBe('WIFI:T:nopass;S:Back Office;H:true;;');
  });

  it('escapes a hostile network name and password; the field holds the password exactly', () => {
    const password = `${HOSTILE.quotes}${HOSTILE.script}`;
    const html = wifiPage({ ssid: `${HOSTILE.tag}${HOSTILE.rtl}`, password, encryption: 'WEP' });
    expect(html).not.toMatch(/<script>|<img/);
    const page = parsePage(html);
    expect(text(page, 'h1')).toBe(`${HOSTILE.tag}${HOSTILE.rtl}`);
    expect(page('input').val()).toBe(password);
    expect(text(page, '.steps')).toContain(`“${HOSTILE.tag}${HOSTILE.rtl}”`);
  });

  it('keeps a 1,000-character password whole', () => {
    const page = parsePage(wifiPage({ ssid: HOSTILE.emoji, password: HOSTILE.long, encryption: 'WPA' }));
    expect(page('input').val()).toBe(HOSTILE.long);
    expect(text(page, 'h1')).toBe(HOSTILE.emoji);
  });
});
