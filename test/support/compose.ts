import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { REPOSITORY_ROOT } from './environment';

/**
 * docker-compose.yml as Docker Compose reads it, for tests that cannot run Docker: the file parsed
 * with its anchors and merge keys (`<<: *app`), and its `${…}` references interpolated from an
 * environment as Compose does it.
 */

export interface ComposeService {
  image?: string;
  environment?: Record<string, string | number | boolean>;
  ports?: string[];
  expose?: string[];
  deploy?: { replicas?: number };
}

export interface ComposeFile {
  services: Record<string, ComposeService>;
}

export const COMPOSE_FILE = join(REPOSITORY_ROOT, 'docker-compose.yml');

export function readCompose(): ComposeFile {
  return parse(readFileSync(COMPOSE_FILE, 'utf8'), { merge: true }) as ComposeFile;
}

export type Environment = Record<string, string | undefined>;

/**
 * Compose's interpolation: `$$` is a `$`; `${NAME}` and `$NAME` the variable (empty when unset);
 * `${NAME:-default}` the default when unset or empty, `${NAME-default}` when unset; `${NAME:?message}`
 * and `${NAME?message}` an error when unset (or empty); `${NAME:+other}` and `${NAME+other}` the
 * other when set. Defaults and messages are interpolated in turn (`${REDIRECT_HOST:-${API_HOST}}`).
 */
export function interpolate(text: string, env: Environment): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    if (text[i] !== '$') {
      out += text[i];
      continue;
    }
    if (text[i + 1] === '$') {
      out += '$';
      i++;
    } else if (text[i + 1] === '{') {
      const end = closingBrace(text, i + 2);
      out += substitute(text.slice(i + 2, end), env);
      i = end;
    } else {
      const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(i + 1))?.[0];
      if (name === undefined) out += '$';
      else {
        out += env[name] ?? '';
        i += name.length;
      }
    }
  }
  return out;
}

function closingBrace(text: string, from: number): number {
  let depth = 1;
  for (let i = from; i < text.length; i++) {
    if (text[i] === '{') depth++;
    else if (text[i] === '}' && --depth === 0) return i;
  }
  throw new Error(`unclosed \${ in ${text}`);
}

function substitute(expression: string, env: Environment): string {
  const match = /^([A-Za-z_][A-Za-z0-9_]*)(?:(:?)([-?+])([\s\S]*))?$/.exec(expression);
  if (!match) throw new Error(`not a variable reference: \${${expression}}`);
  const [, name, colon, operator, rest] = match;
  const value = env[name];
  const missing = value === undefined || (colon === ':' && value === '');
  if (operator === '-') return missing ? interpolate(rest, env) : value;
  if (operator === '?') {
    if (missing) throw new Error(`required variable ${name} is missing a value: ${interpolate(rest, env)}`);
    return value;
  }
  if (operator === '+') return missing ? '' : interpolate(rest, env);
  return value ?? '';
}

/** A service's environment as the container gets it: every value interpolated from `env`. */
export function serviceEnvironment(compose: ComposeFile, service: string, env: Environment): Record<string, string> {
  const declared = compose.services[service]?.environment;
  if (!declared) throw new Error(`docker-compose.yml: no environment for service ${service}`);
  return Object.fromEntries(Object.entries(declared).map(([name, value]) => [name, interpolate(String(value), env)]));
}

/** Every variable the file reads from the operator's environment (`${NAME…}` and `$NAME`), and whether it must be set. */
export function composeVariables(): Map<string, { required: boolean }> {
  const variables = new Map<string, { required: boolean }>();
  const text = readFileSync(COMPOSE_FILE, 'utf8')
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('#'))
    .join('\n')
    .replaceAll('$$', '');
  for (const [, braced, operator, bare] of text.matchAll(/\$(?:\{([A-Za-z_][A-Za-z0-9_]*)(:?[-?+])?|([A-Za-z_][A-Za-z0-9_]*))/g)) {
    const name = braced ?? bare;
    const required = operator?.endsWith('?') ?? false;
    variables.set(name, { required: required || (variables.get(name)?.required ?? false) });
  }
  return variables;
}
