// Packs the package as an author gets it: `npm pack` of a copy of this repository's
// package.json and the files it lists, with dist/ taken from the built site under test
// (DIST_DIR, i.e. $MHA_DIST_DIR or dist/). Packing a copy lets a test use a site built
// into another folder; when DIST_DIR is dist/ the tarball is the one `npm pack` makes here.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DIST_DIR } from './browser.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Packs into `destination`; returns the tarball's file name (inside `destination`). */
export function packPackage(destination) {
  const stage = mkdtempSync(path.join(destination, 'stage-'));
  try {
    const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    // npm adds package.json, README, LICENSE and CHANGELOG by itself: copy them when present.
    const always = ['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md'];
    for (const entry of [...always, ...(manifest.files ?? []).flatMap(expand)]) {
      const name = entry.replace(/\/$/, '');
      const from = name === 'dist' ? DIST_DIR : path.join(ROOT, name);
      if (existsSync(from)) cpSync(from, path.join(stage, name), { recursive: true });
    }
    // The site is already built: skip the prepack rebuild.
    const output = execFileSync('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', destination],
      { cwd: stage, encoding: 'utf8' });
    return output.trim().split('\n').pop();
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

// A `files` entry with `*` in some of its path segments ("web/widgets/*/README.md"), as the
// paths it matches here; an entry without one, as it is.
function expand(entry) {
  if (!entry.includes('*')) return [entry];
  let paths = [''];
  for (const segment of entry.replace(/\/$/, '').split('/')) {
    const pattern = new RegExp(`^${segment.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}$`);
    paths = paths.flatMap((dir) => {
      const at = path.join(ROOT, dir);
      if (!segment.includes('*')) return existsSync(path.join(at, segment)) ? [path.join(dir, segment)] : [];
      if (!existsSync(at) || !statSync(at).isDirectory()) return [];
      return readdirSync(at).filter((name) => pattern.test(name)).map((name) => path.join(dir, name));
    });
  }
  return paths;
}
