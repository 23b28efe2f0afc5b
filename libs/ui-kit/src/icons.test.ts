import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '../../..');
const source = readFileSync(path.join(__dirname, 'icons.ts'), 'utf8');

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : /\.tsx?$/.test(name) ? [p] : [];
  });
}

describe('icon loader', () => {
  const listed = /APP_ICONS =\s*\/\^\(([^)]*)\)\$\//.exec(source)![1]!.split('|');
  const included = /webpackInclude: \/\\\/\(([^)]*)\)\\\.js\$\//.exec(source)![1]!.split('|');

  it('bundles exactly the icons it lists', () => {
    expect(included).toEqual(listed);
  });

  it('lists every icon a screen names, so none falls back to the full set', () => {
    const dirs = ['shell/src', 'mf-orders/src', 'mf-wallet/src', 'mf-directories/src', 'libs/ui-kit/src'];
    const used = new Set<string>();
    for (const file of dirs.flatMap((d) => filesUnder(path.join(root, d)))) {
      for (const m of readFileSync(file, 'utf8').matchAll(
        /\b(?:icon|leftIcon|endIcon)(?:=|: )["']([a-z0-9-]+)["']/g,
      ))
        used.add(m[1]!);
    }
    expect(used.size).toBeGreaterThan(10);
    expect([...used].filter((name) => !listed.includes(name))).toEqual([]);
  });
});
