import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { addressRefusal } from '../../common/web/address-policy';

/** At most this much of a response is kept with its attempt. */
export const SNIPPET_BYTES = 1024;
/** A response body is read this far (so its connection can be reused); a longer one is cut. */
const DRAIN_BYTES = 64 * 1024;
const MAX_ERROR_CHARS = 500;

export interface SendResult {
  statusCode: number | null;
  /** Why no (successful) response came, for the attempt's log. */
  error: string | null;
  /** Refused before anything was sent: the target resolved to an address the rules forbid. */
  refused: boolean;
  durationMs: number;
  /** The first SNIPPET_BYTES of the response body, as text. */
  snippet: string | null;
  retryAfterMs?: number;
}

export interface SenderOptions {
  allowPrivate: boolean;
  timeoutMs: number;
}

class RefusedTarget extends Error {}

/**
 * Posts webhook bodies. The target's host is resolved at every new connection, and every address
 * it resolves to is checked (loopback, private, link-local, CGNAT, multicast, metadata, IPv6 and
 * mapped forms: src/common/web/address-policy.ts) unless WEBHOOK_ALLOW_PRIVATE=1; the connection goes to the
 * address checked, so a DNS answer cannot change between check and use. Redirects are not
 * followed (a 3xx is the answer). The whole exchange is bounded by `timeoutMs`. Connections are
 * kept alive between deliveries to the same host.
 */
export class WebhookSender {
  private readonly agents = {
    'http:': new http.Agent({ keepAlive: true, maxSockets: 256, timeout: 30_000 }),
    'https:': new https.Agent({ keepAlive: true, maxSockets: 256, timeout: 30_000 }),
  };

  constructor(private readonly options: SenderOptions) {}

  async send(target: string, headers: Record<string, string>, payload: Buffer, signal?: AbortSignal): Promise<SendResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const url = parseTarget(target, this.options.allowPrivate);
    if (typeof url === 'string') return { statusCode: null, error: url, refused: true, durationMs: 0, snippet: null };
    const protocol = url.protocol === 'https:' ? 'https:' : 'http:';
    const client = protocol === 'https:' ? https : http;
    return new Promise<SendResult>((resolve) => {
      let settled = false;
      const finish = (result: Omit<SendResult, 'durationMs'>) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        resolve({ ...result, durationMs: elapsed() });
      };
      const request = client.request(url, {
        method: 'POST',
        agent: this.agents[protocol],
        headers: { ...headers, 'content-type': 'application/json', 'content-length': String(payload.length), 'user-agent': 'qr-service-webhooks/1' },
        lookup: this.options.allowPrivate ? undefined : checkedLookup,
      });
      const timer = setTimeout(() => request.destroy(new Error(`no answer within ${this.options.timeoutMs / 1000} s`)), this.options.timeoutMs);
      const onAbort = () => request.destroy(new Error('aborted: the instance is shutting down'));
      signal?.addEventListener('abort', onAbort);
      request.on('error', (error) => {
        const refused = error instanceof RefusedTarget;
        finish({ statusCode: null, error: clip(refused ? error.message : `${error.message}`), refused, snippet: null });
      });
      request.on('response', (response) => readResponse(response, finish));
      request.end(payload);
    });
  }

  close(): void {
    for (const agent of Object.values(this.agents)) agent.destroy();
  }
}

/** The target as a URL, or why it is refused before any lookup: it does not parse, or is a literal address the rules forbid. */
function parseTarget(target: string, allowPrivate: boolean): URL | string {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return 'refused: the URL cannot be parsed';
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!allowPrivate && isIP(host)) {
    const refusal = addressRefusal(host);
    if (refusal) return refusedMessage(refusal);
  }
  return url;
}

/**
 * Reads a response for the attempt's log: its status, the first SNIPPET_BYTES of its body (drained
 * up to DRAIN_BYTES so the connection can be reused), a redirect named as not followed, Retry-After.
 */
function readResponse(response: http.IncomingMessage, finish: (result: Omit<SendResult, 'durationMs'>) => void): void {
  const chunks: Buffer[] = [];
  let kept = 0;
  let read = 0;
  response.on('data', (chunk: Buffer) => {
    read += chunk.length;
    if (kept < SNIPPET_BYTES) {
      const part = chunk.subarray(0, SNIPPET_BYTES - kept);
      chunks.push(part);
      kept += part.length;
    }
    if (read > DRAIN_BYTES) response.destroy();
  });
  const done = () => {
    const status = response.statusCode ?? null;
    const snippet = kept > 0 ? Buffer.concat(chunks).toString('utf8').replace(/\0/g, '') : null;
    const redirected = status !== null && status >= 300 && status < 400;
    finish({
      statusCode: status,
      error: redirected ? `redirect to ${clip(String(response.headers.location ?? '(no location)'))} not followed` : null,
      refused: false,
      snippet,
      retryAfterMs: retryAfterMs(response.headers['retry-after']),
    });
  };
  response.on('end', done);
  response.on('close', done);
  response.on('error', done);
}

const refusedMessage = (reason: string) =>
  `refused: ${reason}; webhooks are sent only to public addresses (WEBHOOK_ALLOW_PRIVATE=1 allows internal ones)`;

/** dns.lookup, refusing the connection when any address of the host is one the rules forbid. */
const checkedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error, '', 0);
    for (const { address } of addresses) {
      const refusal = addressRefusal(address);
      if (refusal) return callback(new RefusedTarget(refusedMessage(`${hostname} resolves to ${refusal}`)), '', 0);
    }
    if (options.all) return (callback as unknown as (error: null, addresses: LookupAddress[]) => void)(null, addresses);
    return callback(null, addresses[0].address, addresses[0].family);
  });
};

function clip(text: string): string {
  return text.length > MAX_ERROR_CHARS ? `${text.slice(0, MAX_ERROR_CHARS - 1)}…` : text;
}

/** Retry-After as seconds or an HTTP date, in milliseconds. */
function retryAfterMs(header: string | undefined): number | undefined {
  if (!header) return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}
