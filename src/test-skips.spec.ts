import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * A test that needs PostgreSQL, Redis, Chromium or the build is declared with itWhen/describeWhen
 * (test/support/environment.ts), so jest reports it as skipped when they are missing and CI fails
 * on the skip. A test that returns early instead is counted as passed: this spec finds them.
 */
const ROOT = join(__dirname, '..');
const EARLY_RETURN = /if \(!\s*(?:HAS_[A-Z]+|serverUrl\(\)|process\.env\.[A-Z_]+)\)\s*return\b/;

function specFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' || entry.name === 'node_modules' ? [] : specFiles(path);
    return /[.-]spec\.ts$/.test(entry.name) ? [path] : [];
  });
}

describe('tests that need the environment', () => {
  it('are skipped when it is missing, never passed by returning early', () => {
    const files = [...specFiles(join(ROOT, 'src')), ...specFiles(join(ROOT, 'test'))].filter((file) => file !== __filename);
    const early = files.flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, index) => (EARLY_RETURN.test(line) ? [`${relative(ROOT, file)}:${index + 1}: ${line.trim()}`] : [])),
    );
    expect(early).toEqual([]);
  });

  it('recognises the pattern it forbids', () => {
    expect(EARLY_RETURN.test("if (!serverUrl()) return console.warn('skipped');")).toBe(true);
    expect(EARLY_RETURN.test('if (!HAS_CHROMIUM) return;')).toBe(true);
    expect(EARLY_RETURN.test('if (!runs) return;')).toBe(false);
  });
});
