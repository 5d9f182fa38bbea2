import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/**
 * Figures of the code's shape, read from the TypeScript AST (docs/testing.md#the-codes-shape):
 * functions over a length, import circles between files, constructor dependencies per class.
 * `npm run --silent figures [-- DIR]` prints them; src/code-shape.spec.ts holds the limits.
 * Source files: every `.ts` under the folder but specs, `generated/` and `__fixtures__/`.
 */

export interface LongFunction {
  file: string;
  line: number;
  name: string;
  /** from the function's first line (its signature; not its decorators or comment) to its last */
  lines: number;
  /** inside another function over the limit */
  nested: boolean;
}

export interface ClassDependencies {
  file: string;
  name: string;
  /** constructor parameters: what Nest injects */
  count: number;
}

export function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return ['generated', '__fixtures__', 'node_modules'].includes(entry.name) ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') && !/[.-]spec\.ts$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

const parsed = new Map<string, ts.SourceFile>();
/** Each file parsed once per process (the spec asks several figures of the same tree). */
function parse(file: string): ts.SourceFile {
  let source = parsed.get(file);
  if (!source) {
    source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    parsed.set(file, source);
  }
  return source;
}

type FunctionNode = ts.FunctionLikeDeclaration;

const isFunction = (node: ts.Node): node is FunctionNode =>
  ts.isFunctionDeclaration(node) ||
  ts.isFunctionExpression(node) ||
  ts.isArrowFunction(node) ||
  ts.isMethodDeclaration(node) ||
  ts.isConstructorDeclaration(node) ||
  ts.isGetAccessorDeclaration(node) ||
  ts.isSetAccessorDeclaration(node);

function nameOf(node: FunctionNode): string {
  const owner = ts.isClassLike(node.parent) ? `${node.parent.name?.text ?? '(class)'}.` : '';
  if (ts.isConstructorDeclaration(node)) return `${owner}constructor`;
  if (node.name && ts.isIdentifier(node.name)) return owner + node.name.text;
  const parent = node.parent;
  const named = ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent);
  return named && ts.isIdentifier(parent.name) ? parent.name.text : '(anonymous)';
}

/** Every function over `max` lines, longest first; nested ones counted on their own. */
export function longFunctions(root: string, max = 50): LongFunction[] {
  const found: LongFunction[] = [];
  for (const file of sourceFiles(root)) {
    const source = parse(file);
    const lineOf = (position: number) => source.getLineAndCharacterOfPosition(position).line;
    const visit = (node: ts.Node, insideLong: boolean): void => {
      let long = insideLong;
      if (isFunction(node) && node.body) {
        const first = lineOf(node.getStart(source, false));
        const lines = lineOf(node.end) - first + 1;
        if (lines > max) {
          found.push({ file: relative(root, file), line: first + 1, name: nameOf(node), lines, nested: insideLong });
          long = true;
        }
      }
      ts.forEachChild(node, (child) => visit(child, long));
    };
    visit(source, false);
  }
  return found.sort((a, b) => b.lines - a.lines);
}

/** Every class's constructor parameters, most first. */
export function constructorDependencies(root: string): ClassDependencies[] {
  const found: ClassDependencies[] = [];
  for (const file of sourceFiles(root)) {
    const visit = (node: ts.Node): void => {
      if (ts.isClassDeclaration(node)) {
        const constructor = node.members.find(ts.isConstructorDeclaration);
        if (constructor) found.push({ file: relative(root, file), name: node.name?.text ?? '(class)', count: constructor.parameters.length });
      }
      ts.forEachChild(node, visit);
    };
    visit(parse(file));
  }
  return found.sort((a, b) => b.count - a.count);
}

/** The files a file imports (relative specifiers, type-only imports included), resolved to files. */
function importsOf(file: string): string[] {
  const source = parse(file);
  const targets: string[] = [];
  const add = (specifier: ts.Expression | undefined) => {
    if (!specifier || !ts.isStringLiteral(specifier) || !specifier.text.startsWith('.')) return;
    const base = resolve(dirname(file), specifier.text);
    const target = [`${base}.ts`, join(base, 'index.ts')].find((candidate) => existsSync(candidate));
    if (target) targets.push(target);
  };
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) add(statement.moduleSpecifier);
  }
  return targets;
}

/** Import circles between files: each strongly connected group of two or more files (Tarjan), as paths under `root`. */
export function importCircles(root: string): string[][] {
  const files = sourceFiles(root);
  const edges = new Map(files.map((file) => [file, importsOf(file).filter((target) => target !== file)]));
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const connect = (file: string): void => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const next of edges.get(file) ?? []) {
      if (!index.has(next)) {
        connect(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(file, Math.min(low.get(file)!, index.get(next)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(relative(root, member));
    } while (member !== file);
    if (group.length > 1) circles.push(group.sort());
  };
  for (const file of files) if (!index.has(file)) connect(file);
  return circles;
}

function report(root: string): void {
  const long = longFunctions(root);
  for (const f of long) console.log(`${String(f.lines).padStart(4)}  ${f.file}:${f.line}  ${f.name}${f.nested ? '  (nested)' : ''}`);
  console.log(`${long.length} functions over 50 lines, nested counted (${long.filter((f) => !f.nested).length} outermost)\n`);
  const circles = importCircles(root);
  for (const circle of circles) console.log(`circle: ${circle.join(' <-> ')}`);
  console.log(`${circles.length} import circles between files\n`);
  const classes = constructorDependencies(root).filter((entry) => entry.count > 8);
  for (const entry of classes) console.log(`${String(entry.count).padStart(4)}  ${entry.file}  ${entry.name}`);
  console.log(`${classes.length} classes with more than 8 constructor dependencies`);
}

if (require.main === module) report(resolve(process.argv[2] ?? join(__dirname, '..', '..', 'src')));
