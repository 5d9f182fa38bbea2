import { type WifiContent, encodeWifi } from './wifi.encoder';

describe('encodeWifi', () => {
  test.each<[string, WifiContent, string]>([
    ['WPA network', { ssid: 'Home', password: 'secret123', encryption: 'WPA' }, 'WIFI:T:WPA;S:Home;P:secret123;;'],
    ['WEP network', { ssid: 'Old', password: '12345', encryption: 'WEP' }, 'WIFI:T:WEP;S:Old;P:12345;;'],
    [
      'hidden network: H:true before the final ;',
      { ssid: 'Home', password: 'pw', encryption: 'WPA', hidden: true },
      'WIFI:T:WPA;S:Home;P:pw;H:true;;',
    ],
    ['hidden false adds nothing', { ssid: 'Home', password: 'pw', encryption: 'WPA', hidden: false }, 'WIFI:T:WPA;S:Home;P:pw;;'],
    ['open network has no P field', { ssid: 'Cafe', encryption: 'nopass' }, 'WIFI:T:nopass;S:Cafe;;'],
    ['open hidden network', { ssid: 'Cafe', encryption: 'nopass', hidden: true }, 'WIFI:T:nopass;S:Cafe;H:true;;'],
    ['semicolon escaped', { ssid: 'a;b', password: 'c;d', encryption: 'WPA' }, String.raw`WIFI:T:WPA;S:a\;b;P:c\;d;;`],
    ['comma escaped', { ssid: 'a,b', password: 'c,d', encryption: 'WPA' }, String.raw`WIFI:T:WPA;S:a\,b;P:c\,d;;`],
    ['colon escaped', { ssid: 'a:b', password: 'c:d', encryption: 'WPA' }, String.raw`WIFI:T:WPA;S:a\:b;P:c\:d;;`],
    ['backslash escaped', { ssid: 'a\\b', password: 'c\\d', encryption: 'WPA' }, String.raw`WIFI:T:WPA;S:a\\b;P:c\\d;;`],
    ['double quote escaped', { ssid: 'a"b', password: '"cd"', encryption: 'WPA' }, String.raw`WIFI:T:WPA;S:a\"b;P:\"cd\";;`],
    [
      'all special characters together',
      { ssid: '\\;,:"', password: '"x:y,z;\\', encryption: 'WPA' },
      String.raw`WIFI:T:WPA;S:\\\;\,\:\";P:\"x\:y\,z\;\\;;`,
    ],
    ['spaces kept', { ssid: ' Guest Net ', password: ' pass word ', encryption: 'WPA' }, 'WIFI:T:WPA;S: Guest Net ;P: pass word ;;'],
    ['non-ASCII unchanged', { ssid: 'Café 日本 📶', password: 'pässwört', encryption: 'WPA' }, 'WIFI:T:WPA;S:Café 日本 📶;P:pässwört;;'],
  ])('%s', (_case, content, expected) => {
    expect(encodeWifi(content)).toBe(expected);
  });
});
