import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPOSITORY_ROOT } from './environment';

/** docker/Caddyfile and the options the project checked in both Caddy versions it depends on (docker/caddyfile-options.json). */
export const CADDYFILE = join(REPOSITORY_ROOT, 'docker', 'Caddyfile');

export interface CaddyfileOptions {
  tested: string;
  pinned: string;
  globalOptions: string[];
  onDemandTlsOptions: string[];
  directives: string[];
  tlsOptions: string[];
  matchers: string[];
}

export function readCaddyfileOptions(): CaddyfileOptions {
  return JSON.parse(readFileSync(join(REPOSITORY_ROOT, 'docker', 'caddyfile-options.json'), 'utf8')) as CaddyfileOptions;
}

/** What a Caddyfile uses, by the place it appears in (names as written). */
export interface CaddyfileUse {
  globalOptions: string[];
  onDemandTlsOptions: string[];
  directives: string[];
  tlsOptions: string[];
  matchers: string[];
  /** Lines in blocks whose content no list covers, e.g. "reverse_proxy { lb_policy }". */
  uncheckedBlocks: string[];
}

/** Whitespace-separated tokens of a line, comments dropped (a `#` that starts a token), quoted strings kept whole. */
function tokensOf(line: string): string[] {
  const tokens: string[] = [];
  for (const [token] of line.matchAll(/"(?:[^"\\]|\\.)*"|`[^`]*`|\S+/g)) {
    if (token.startsWith('#')) break;
    tokens.push(token);
  }
  return tokens;
}

/**
 * Reads the structure of a Caddyfile formatted as `caddy fmt` writes it (a block opens with `{` as
 * the last token of its line and closes with `}` alone on one): the global options block (the first
 * block, with no key), snippets `(name)`, sites, and within them directives, named matchers and the
 * subdirectives of `on_demand_tls` and `tls`.
 */
export function caddyfileUse(text: string): CaddyfileUse {
  const use: CaddyfileUse = { globalOptions: [], onDemandTlsOptions: [], directives: [], tlsOptions: [], matchers: [], uncheckedBlocks: [] };
  const stack: string[][] = []; // the opening line's tokens of each enclosing block
  let blocks = 0;
  for (const line of text.split('\n')) {
    const tokens = tokensOf(line);
    if (tokens.length === 0) continue;
    if (tokens.length === 1 && tokens[0] === '}') {
      stack.pop();
      continue;
    }
    const opens = tokens[tokens.length - 1] === '{';
    const words = opens ? tokens.slice(0, -1) : tokens;
    if (stack.length === 0) {
      if (!opens) throw new Error(`Caddyfile: "${line.trim()}" outside any block`);
      // The global options block has no key and can only be the first.
      stack.push(words.length === 0 && blocks === 0 ? ['{global}'] : words);
      blocks++;
      continue;
    }
    recordLine(use, stack, words);
    if (opens) stack.push(words);
  }
  if (stack.length > 0) throw new Error('Caddyfile: a block is not closed');
  return use;
}

function recordLine(use: CaddyfileUse, stack: string[][], words: string[]): void {
  const [name] = words;
  const outer = stack[0][0];
  const parent = stack[stack.length - 1];
  if (stack.length === 1) {
    if (outer === '{global}') use.globalOptions.push(name);
    else if (name.startsWith('@')) {
      if (words[1] !== undefined) use.matchers.push(words[1]);
    } else use.directives.push(name);
    return;
  }
  if (stack.length === 2 && outer === '{global}' && parent[0] === 'on_demand_tls') use.onDemandTlsOptions.push(name);
  else if (stack.length === 2 && outer !== '{global}' && parent[0] === 'tls') use.tlsOptions.push(name);
  else if (stack.length === 2 && parent[0].startsWith('@')) use.matchers.push(name);
  else use.uncheckedBlocks.push(`${parent.join(' ')} { ${name} }`);
}

/**
 * The Caddyfile with `options` added at the top of its global options block: how a test runs the
 * shipped file on its own ports, storage and CA without changing a line of it.
 */
export function withGlobalOptions(text: string, options: string[]): string {
  const lines = text.split('\n');
  const open = lines.findIndex((line) => tokensOf(line).length > 0);
  if (lines[open]?.trim() !== '{') throw new Error('Caddyfile: the first block is not the global options block');
  return [...lines.slice(0, open + 1), ...options.map((option) => `\t${option}`), ...lines.slice(open + 1)].join('\n');
}
