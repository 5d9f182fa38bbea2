import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPOSITORY_ROOT } from './environment';

/**
 * A shell block of README.md that tests run as written: the ```sh block right after the line
 * `<!-- ci: <name> ... -->` (the convention of .ci/run's readme_block).
 */
export function readmeBlock(name: string): string {
  const lines = readFileSync(join(REPOSITORY_ROOT, 'README.md'), 'utf8').split('\n');
  const marker = lines.findIndex((line) => line.startsWith(`<!-- ci: ${name} `));
  if (marker < 0) throw new Error(`README.md has no block marked <!-- ci: ${name} -->`);
  const open = lines.findIndex((line, index) => index > marker && line === '```sh');
  const close = lines.findIndex((line, index) => index > open && line === '```');
  if (open !== marker + 1 || close < 0) throw new Error(`README.md: the block marked ${name} is not a \`\`\`sh block right below its marker`);
  return lines.slice(open + 1, close).join('\n');
}
