import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** README's "Layout" lists every folder of src/, and only folders that exist. */
const ROOT = resolve(__dirname, '..');

function layoutBlock(): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('\n## Layout\n'));
  const block = /```\n([\s\S]*?)```/.exec(section);
  if (!block) throw new Error('README has no Layout block');
  return block[1];
}

describe("README's layout", () => {
  const block = layoutBlock();
  const listed = [...block.matchAll(/^ {2}([\w-]+)\/ /gm)].map((match) => match[1]);
  const folders = readdirSync(join(ROOT, 'src'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);

  it('lists every folder of src/', () => {
    expect(folders.filter((folder) => !listed.includes(folder))).toEqual([]);
  });

  it('lists no folder src/ lacks', () => {
    expect(listed.filter((folder) => !folders.includes(folder))).toEqual([]);
  });
});
