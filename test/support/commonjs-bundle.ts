import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * A browser script of a CommonJS package and what it requires, resolved by Node's own resolution:
 * each file becomes a function in a module table, `require` looks modules up in it. Enough for
 * pure-JavaScript packages (ajv for the GS1 conformance suite's page), not for packages that need
 * Node's built-ins. `globalName`: where the entry's exports land on `window`.
 */
export function commonJsBundle(entry: string, globalName: string): string {
  const ids = new Map<string, number>();
  const modules: string[] = [];
  const add = (file: string): number => {
    const known = ids.get(file);
    if (known !== undefined) return known;
    const id = modules.length;
    ids.set(file, id);
    modules.push('');
    const source = readFileSync(file, 'utf8');
    if (file.endsWith('.json')) {
      modules[id] = `function (module) { module.exports = ${source}; }`;
      return id;
    }
    const requires = new Map<string, number>();
    for (const match of source.matchAll(/require\(\s*["']([^"']+)["']\s*\)/g)) {
      const resolved = resolvable(match[1], dirname(file));
      if (resolved) requires.set(match[1], add(resolved));
    }
    const table = JSON.stringify(Object.fromEntries(requires));
    // Each module's require maps the names it uses to module ids.
    const localRequire = `require = (function (load) { return function (name) { return load(${table}[name]); }; })(require);`;
    modules[id] = `function (module, exports, require) { ${localRequire}\n${source}\n}`;
    return id;
  };
  add(require.resolve(entry));
  return `(function () {
  var defs = [${modules.join(',\n')}];
  var cache = {};
  function load(id) {
    if (cache[id]) return cache[id].exports;
    var module = (cache[id] = { exports: {} });
    defs[id](module, module.exports, load);
    return module.exports;
  }
  window[${JSON.stringify(globalName)}] = load(0);
})();`;
}

/** A require in a comment or an optional dependency may name nothing: it is left out (the code never reaches it). */
function resolvable(name: string, from: string): string | null {
  try {
    return require.resolve(name, { paths: [from] });
  } catch {
    return null;
  }
}
