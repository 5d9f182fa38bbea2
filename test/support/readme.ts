import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPOSITORY_ROOT } from './environment';

/**
 * Shell blocks of the documentation that tests run as written: each ```sh block right below a
 * line `<!-- <tag>: <name> ... -->` (the convention of .ci/run's readme_block, whose tag is `ci`).
 */
export function markedShellBlocks(file: string, tag: string): Array<{ name: string; code: string }> {
  const lines = readFileSync(join(REPOSITORY_ROOT, file), 'utf8').split('\n');
  const blocks: Array<{ name: string; code: string }> = [];
  lines.forEach((line, index) => {
    const name = new RegExp(`^<!-- ${tag}: ([\\w-]+)[ >]`).exec(line)?.[1];
    if (name === undefined) return;
    const close = lines.findIndex((candidate, after) => after > index + 1 && candidate === '```');
    if (lines[index + 1] !== '```sh' || close < 0)
      throw new Error(`${file}: the block marked ${name} is not a \`\`\`sh block right below its marker`);
    blocks.push({ name, code: lines.slice(index + 2, close).join('\n') });
  });
  return blocks;
}

/** The README's block marked `<!-- ci: <name> ... -->`. */
export function readmeBlock(name: string): string {
  const block = markedShellBlocks('README.md', 'ci').find((candidate) => candidate.name === name);
  if (!block) throw new Error(`README.md has no block marked <!-- ci: ${name} -->`);
  return block.code;
}
