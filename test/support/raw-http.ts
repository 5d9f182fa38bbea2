import { connect } from 'node:net';
import type { HttpAnswer } from './error-shape';

/** A piece of what the client sends: bytes, or a pause before the next piece. */
export type Sent = string | Buffer | { pauseMs: number };

export interface RawExchange {
  /** The parsed answer, or null when none (complete) came. */
  answer: HttpAnswer | null;
  /** Milliseconds from the last byte sent to the answer (or to the connection's end when none came). */
  ms: number;
  /** Whether the server closed the connection. */
  closed: boolean;
  /** Everything the server wrote, for failure messages. */
  raw: string;
}

/**
 * One HTTP/1.1 exchange over a raw socket, for what light-my-request cannot send: oversized
 * headers, a body that stalls, headers that never end. Resolves when a whole answer arrived, the
 * server closed the connection, or `waitMs` passed after the last piece was sent.
 */
export async function rawExchange(port: number, pieces: Sent[], waitMs: number): Promise<RawExchange> {
  const socket = connect({ host: '127.0.0.1', port });
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  let received = Buffer.alloc(0);
  let closed = false;
  let answered = false;
  let lastSentAt = Date.now();
  const settled = new Promise<void>((resolve) => {
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      if (parseAnswer(received, false)) {
        answered = true;
        resolve();
      }
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      closed = true;
      resolve();
    });
  });
  for (const piece of pieces) {
    if (closed || answered) break;
    if (typeof piece === 'object' && !Buffer.isBuffer(piece)) await new Promise((resolve) => setTimeout(resolve, piece.pauseMs));
    else await new Promise<void>((resolve) => socket.write(piece, () => resolve()));
    lastSentAt = Date.now();
  }
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([settled, new Promise<void>((resolve) => (timer = setTimeout(resolve, waitMs)))]);
  clearTimeout(timer);
  const ms = Date.now() - lastSentAt;
  socket.destroy();
  return { answer: parseAnswer(received, closed), ms, closed, raw: received.toString('latin1').slice(0, 2000) };
}

/** The answer in `bytes` once complete (by Content-Length, or up to the close), else null. */
function parseAnswer(bytes: Buffer, closed: boolean): HttpAnswer | null {
  const end = bytes.indexOf('\r\n\r\n');
  if (end < 0) return null;
  const [statusLine, ...lines] = bytes.subarray(0, end).toString('latin1').split('\r\n');
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine);
  if (!status) return null;
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const body = bytes.subarray(end + 4);
  const length = headers['content-length'] === undefined ? undefined : Number(headers['content-length']);
  if (length !== undefined ? body.length < length : !closed) return null;
  return { statusCode: Number(status[1]), headers, body: body.subarray(0, length ?? body.length).toString('utf8') };
}
