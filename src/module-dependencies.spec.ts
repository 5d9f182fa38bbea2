import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/**
 * The direction of dependencies between the app's modules (docs/architecture.md), checked on every
 * import of every source file. A module may import only the modules listed for it; the list is a
 * layering (no module lists one that lists it back, directly or not), so no cycle can form.
 * Pure pieces (the renderer, the content encoders, the short-code and redirect-target rules) may
 * not import Nest at all.
 */
const SRC = __dirname;

/** Each module and what it may import. */
const ALLOWED: Record<string, string[]> = {
  common: ['generated'],
  generated: ['common'],
  config: ['common'],
  infra: ['common', 'config', 'generated'],
  rendering: ['common'],
  scans: ['common', 'config', 'infra'],
  auth: ['common', 'config', 'infra', 'generated'],
  folders: ['common', 'config', 'infra', 'generated'],
  domains: ['common', 'config', 'infra', 'generated'],
  /** Tags: names and counts; resolved for code writes by the QR code module. */
  tags: ['common', 'config', 'infra', 'generated'],
  /** Brand kits: looks drawn under codes' own styles, checked by the style rules. */
  'brand-kits': ['common', 'config', 'infra', 'generated', 'rendering'],
  /** What a code stores of its smart link, its checks and the rules evaluator: pure, below the QR code module that stores them. */
  'smart-links/settings': ['common', 'config', 'infra', 'scans'],
  /** Tags: a code's tag names resolved to the account's tags in the code write's transaction (TagsService). */
  qrcodes: ['common', 'config', 'infra', 'generated', 'folders', 'domains', 'rendering', 'scans', 'smart-links/settings', 'tags'],
  /** Smart links: the link of a short code, the decision of a visit, the password gate, the dry run. */
  'smart-links': ['common', 'config', 'infra', 'generated', 'qrcodes', 'domains', 'scans', 'smart-links/settings'],
  images: ['common', 'config', 'infra', 'qrcodes', 'domains', 'rendering'],
  styles: ['common', 'config', 'infra', 'qrcodes', 'rendering'],
  bulk: ['common', 'config', 'infra', 'qrcodes'],
  /** Exports stored scan batches to ClickHouse: listens to the scan store (StoredScanListeners). */
  analytics: ['common', 'config', 'infra', 'generated', 'folders', 'qrcodes', 'scans'],
  /** The redirect host: host dispatch, answers, landing pages, the record step (ENTRY_ONLY: the modules it serves through their entry). */
  redirect: ['common', 'config', 'infra', 'rendering', 'qrcodes', 'domains', 'scans', 'smart-links'],
  webhooks: ['common', 'config', 'infra', 'generated', 'folders', 'domains', 'qrcodes', 'scans', 'gs1'],
  /** Listens to QrCodeEvents; folders, webhooks and keys reach it only through infra's AuditTrail port. */
  audit: ['common', 'config', 'infra', 'generated', 'qrcodes'],
  /** Destination history: listens to QrCodeEvents, restores through QrCodesService. */
  history: ['common', 'config', 'infra', 'generated', 'qrcodes'],
  /** CSV imports: rows checked like bulk items, created through the QR code service; folders named by name. */
  imports: ['common', 'config', 'infra', 'generated', 'folders', 'qrcodes', 'bulk', 'tags', 'smart-links/settings'],
  /** Bulk edits by filter or ids: each code changed through the QR code service, as one by one. */
  'bulk-edits': ['common', 'config', 'infra', 'generated', 'qrcodes', 'tags'],
  /** ZIP and CSV exports of codes, drawn by the renderer; the report CSV's unique visitors from analytics. */
  exports: ['common', 'config', 'infra', 'generated', 'folders', 'qrcodes', 'rendering', 'analytics'],
  /** Stats pages and image links: analytics and images shown without a key, on the redirect host's routes (HostRoutes); a tag's stats page (tags). */
  share: [
    'common',
    'domains',
    'config',
    'infra',
    'generated',
    'folders',
    'qrcodes',
    'scans',
    'analytics',
    'images',
    'rendering',
    'redirect',
    'smart-links/settings',
    'tags',
  ],
  /** Abuse prevention (docs/abuse-handling.md): the destination policy, threat feeds, blocks, reports. */
  abuse: ['common', 'config', 'infra', 'generated'],
  /** GS1 Digital Link items on branded domains, and their resolver. */
  gs1: ['common', 'config', 'infra', 'generated', 'domains', 'rendering', 'images', 'scans', 'analytics', 'imports'],
  /** main.ts, app.module.ts, app.factory.ts, cli.ts: the composition root. */
  app: ['*'],
};

/**
 * Modules a module reaches only through their public entry (the folder's index.ts), or for the QR
 * code module the pure content library its landing pages draw: a module's insides can change
 * without its users changing with them.
 */
const ENTRY_ONLY: Record<string, Record<string, RegExp>> = {
  redirect: {
    'smart-links': /^smart-links\/index$/,
    domains: /^domains\/index$/,
    scans: /^scans\/index$/,
    qrcodes: /^qrcodes\/content\//,
  },
};

/** Folders below a module that are a layer of their own (see ALLOWED). */
const LAYERS = ['smart-links/settings'];

const PURE = [
  /^rendering\//,
  /^qrcodes\/content\/[^/]+\.encoder\.ts$/,
  /^qrcodes\/short-code\.ts$/,
  /^common\/web\/redirect-target\.ts$/,
  /^domains\/hostname\.ts$/,
  /^smart-links\/settings\/(?!.*\.dto\.ts$)/,
  /^smart-links\/link-decision\.ts$/,
  /^redirect\/landing\//,
  /^redirect\/previews\//,
  /^scans\/geo\/geo-locator\.ts$/,
  /^history\/versioned-state\.ts$/,
  /^tags\/tag-names\.ts$/,
  /^brand-kits\/kit-style\.ts$/,
  /^bulk-edits\/change-set\.ts$/,
  /^imports\/sources\//,
  /^share\/charts\//,
  /^share\/stats-page\//,
  /^share\/signed-token\.ts$/,
  /^abuse\/policy\//,
  /^abuse\/feeds\/(feed-parsers|feed-config|threat-keys)\.ts$/,
  /^abuse\/host-suffixes\.ts$/,
  /^common\/web\/address-policy\.ts$/,
  /^gs1\/(syntax|links)\//,
  /^gs1\/resolver\/(resolver-decision|linkset|request-preferences|resolver-path|description-file|gs1-link|resolver-answer)\.ts$/,
];

/** A source path relative to src/, with `/` and without `.ts`; a folder's import names its index. */
const pathOf = (file: string): string => {
  const path = relative(SRC, file).split(sep).join('/').replace(/\.ts$/, '');
  return existsSync(join(file, 'index.ts')) ? `${path}/index` : path;
};

const moduleOf = (file: string): string => {
  const path = pathOf(file);
  const layer = LAYERS.find((folder) => path.startsWith(`${folder}/`));
  return layer ?? (path.includes('/') ? path.split('/')[0] : 'app');
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === '__fixtures__' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') && !/[.-]spec\.ts$/.test(entry.name) ? [path] : [];
  });
}

const IMPORT = /^\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]/gm;

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(IMPORT)].map((match) => match[1] ?? match[2]);
}

const files = sourceFiles(SRC).filter((file) => !relative(SRC, file).startsWith('generated'));

describe('module dependencies', () => {
  it('the allowed dependencies form a layering: no module can reach itself', () => {
    const reaches = (from: string, to: string, seen = new Set<string>()): boolean =>
      (ALLOWED[from] ?? []).some((next) => next !== '*' && (next === to || (!seen.has(next) && (seen.add(next), reaches(next, to, seen)))));
    const cyclic = Object.keys(ALLOWED).filter((name) => name !== 'app' && reaches(name, name));
    // common and generated share the id brands both ways: a pair of leaves, not a cycle through a feature.
    expect(cyclic.filter((name) => name !== 'common' && name !== 'generated')).toEqual([]);
  });

  it('every import goes down the layering', () => {
    const wrong: string[] = [];
    for (const file of files) {
      const from = moduleOf(file);
      const allowed = ALLOWED[from] ?? [];
      for (const specifier of importsOf(file)) {
        if (!specifier.startsWith('.')) continue;
        const to = moduleOf(resolve(dirname(file), specifier));
        if (to === from || allowed.includes('*') || allowed.includes(to)) continue;
        wrong.push(`${relative(SRC, file)} (${from}) imports ${specifier} (${to})`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('modules reached through their public entry are imported only through it', () => {
    const wrong: string[] = [];
    for (const file of files) {
      const entries = ENTRY_ONLY[moduleOf(file)] ?? {};
      for (const specifier of importsOf(file)) {
        if (!specifier.startsWith('.')) continue;
        const target = resolve(dirname(file), specifier);
        const entry = entries[moduleOf(target)];
        if (entry && !entry.test(pathOf(target))) wrong.push(`${relative(SRC, file)} imports ${specifier}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('pure pieces import no Nest', () => {
    const nestful = files
      .filter((file) => PURE.some((pattern) => pattern.test(relative(SRC, file).split(sep).join('/'))))
      .filter((file) => importsOf(file).some((specifier) => specifier.startsWith('@nestjs/')))
      .map((file) => relative(SRC, file));
    expect(nestful).toEqual([]);
  });

  it('names only modules that exist (a folder of src/ each)', () => {
    const missing = [...Object.keys(ALLOWED), ...LAYERS].filter((name) => name !== 'app' && !existsSync(join(SRC, name)));
    expect(missing).toEqual([]);
  });

  it('knows every module it finds (a new folder gets its place in the layering)', () => {
    const unknown = [...new Set(files.map(moduleOf))].filter((name) => !(name in ALLOWED));
    expect(unknown).toEqual([]);
  });
});
