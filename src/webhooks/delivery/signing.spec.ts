import { Webhook } from 'standardwebhooks';
import { newSigningSecret, SecretBox, signatureHeader } from './signing';

describe('signing', () => {
  const body = JSON.stringify({ type: 'webhook.test', timestamp: '2030-01-01T00:00:00.000Z', data: {} });

  it('makes whsec_ secrets of 32 random bytes', () => {
    const secret = newSigningSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(newSigningSecret()).not.toBe(secret);
  });

  it('computes exactly what the standardwebhooks package signs', () => {
    const secret = newSigningSecret();
    const at = new Date('2030-01-01T12:34:56.789Z');
    for (const text of [body, '', 'ünïcödé ✓ "quotes" \\ and\nnewlines', 'x'.repeat(30_000)]) {
      expect(signatureHeader([secret], 'msg_2', at, text)).toBe(new Webhook(secret).sign('msg_2', at, text));
      // The worker signs the UTF-8 bytes it posts.
      expect(signatureHeader([secret], 'msg_2', at, Buffer.from(text))).toBe(new Webhook(secret).sign('msg_2', at, text));
    }
  });

  it('signs so that the Standard Webhooks verifier accepts it with either secret of a rotation', () => {
    const [current, previous] = [newSigningSecret(), newSigningSecret()];
    const now = new Date();
    const headers = {
      'webhook-id': 'msg_1',
      'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
      'webhook-signature': signatureHeader([current, previous], 'msg_1', now, body),
    };
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(new Webhook(current).verify(body, headers)).toEqual(JSON.parse(body));
    expect(new Webhook(previous).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(newSigningSecret()).verify(body, headers)).toThrow('No matching signature');
    expect(() => new Webhook(current).verify(body.replace('webhook.test', 'webhook.tset'), headers)).toThrow('No matching signature');
  });
});

describe('SecretBox', () => {
  const box = SecretBox.fromKeyMaterial('k'.repeat(40));

  it('opens what it sealed for the same owner, and nothing else', () => {
    const sealed = box.seal('whsec_abc', 'endpoint-1');
    expect(sealed).toMatch(/^v1\./);
    expect(sealed).not.toContain('whsec_abc');
    expect(box.open(sealed, 'endpoint-1')).toBe('whsec_abc');
    expect(() => box.open(sealed, 'endpoint-2')).toThrow();
    expect(() => SecretBox.fromKeyMaterial('x'.repeat(40)).open(sealed, 'endpoint-1')).toThrow();
    expect(box.seal('whsec_abc', 'endpoint-1')).not.toBe(sealed);
  });
});
