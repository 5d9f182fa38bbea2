import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * The documentation's references stay true: every `docs/<name>.md` named in the source, the docs
 * or the README exists, every relative link between the pages reaches a file (and a heading, when
 * it names one), and a few facts the pages repeat from the code still match it.
 */

const ROOT = resolve(__dirname, '..');
const DOCS = join(ROOT, 'docs');

function filesUnder(folder: string, extension: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return name === 'generated' || name === 'node_modules' ? [] : filesUnder(path, extension);
    return path.endsWith(extension) ? [path] : [];
  });
}

const sourceFiles = filesUnder(join(ROOT, 'src'), '.ts');
const pages = [join(ROOT, 'README.md'), ...filesUnder(DOCS, '.md')];
const at = (path: string) => relative(ROOT, path);

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsOf(page: string): Set<string> {
  const text = readFileSync(page, 'utf8').replace(/```[\s\S]*?```/g, '');
  return new Set([...text.matchAll(/^#{1,6}\s+(.+)$/gm)].map((match) => anchorOf(match[1])));
}

describe('docs/… paths named in the source, the docs and the README', () => {
  const named = [...sourceFiles, ...pages].flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(/(?<![\w/.-])docs\/([\w-]+\.md)/g)].map((match) => ({ file: at(file), path: `docs/${match[1]}` })),
  );

  it('finds references to check', () => {
    expect(named.length).toBeGreaterThan(10);
  });

  it('name pages that exist', () => {
    expect(named.filter(({ path }) => !existsSync(join(ROOT, path)))).toEqual([]);
  });
});

describe('relative links of the README and the docs pages', () => {
  const links = pages.flatMap((page) =>
    [...readFileSync(page, 'utf8').matchAll(/\]\(([^)\s]+)\)/g)]
      .map((match) => match[1])
      .filter((target) => !/^[a-z]+:/i.test(target))
      .map((target) => ({ page, target })),
  );

  it('finds links to check', () => {
    expect(links.length).toBeGreaterThan(10);
  });

  it('reach a file, and a heading of it when they name one', () => {
    const broken = links.filter(({ page, target }) => {
      const [path, anchor] = target.split('#');
      const file = path === '' ? page : resolve(dirname(page), path);
      if (!existsSync(file)) return true;
      return anchor !== undefined && file.endsWith('.md') && !anchorsOf(file).has(anchor);
    });
    expect(broken.map(({ page, target }) => `${at(page)}: ${target}`)).toEqual([]);
  });
});

describe('facts the docs repeat from the code', () => {
  it('docs/architecture.md lists every owned table (src/infra/database/tables.ts)', () => {
    const union = /export type OwnedTable =([^;]+);/.exec(readFileSync(join(ROOT, 'src/infra/database/tables.ts'), 'utf8'))![1];
    const owned = [...union.matchAll(/'(\w+)'/g)].map((match) => match[1]);
    expect(owned.length).toBeGreaterThan(4);
    const sentence = /Owned\s+tables \(([^)]+)\)/.exec(readFileSync(join(DOCS, 'architecture.md'), 'utf8'))![1];
    const listed = [...sentence.matchAll(/`([a-z0-9_]+)`/g)].map((match) => match[1]);
    expect(listed.sort()).toEqual([...owned].sort());
  });

  it("the README's Layout names each folder once", () => {
    const layout = /## Layout\s+```\n([\s\S]*?)```/.exec(readFileSync(join(ROOT, 'README.md'), 'utf8'))![1];
    const folders = [...layout.matchAll(/^ {0,2}([\w.-]+\/)/gm)].map((match) => match[1]);
    expect(folders.filter((folder, index) => folders.indexOf(folder) !== index)).toEqual([]);
  });

  it('docs/api-keys-and-security.md gives the landing pages’ CSP as the server sends it (a style hash, not unsafe-inline)', () => {
    const security = readFileSync(join(DOCS, 'api-keys-and-security.md'), 'utf8');
    const row = security.split('\n').find((line) => line.startsWith('| Landing pages'))!;
    expect(row).not.toContain('unsafe-inline');
    expect(row).toContain("style-src 'sha256-");
  });
});
