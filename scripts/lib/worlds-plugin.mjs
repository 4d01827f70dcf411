// Ships the world format with the build (docs/WORLDS.md): dist/world.schema.json, and the
// worlds an author can name in a widget's `world` attribute as they are, in dist/worlds/:
// lesson.json (the lesson's own), and every file of lessons/multiple-heads/worlds/. Each
// world's "$schema" points at the shipped schema, so an editor checks a copy an author edits.
import { readFileSync, readdirSync } from 'node:fs';

const LESSON = 'lessons/multiple-heads';

export function worldFiles() {
  const worlds = readdirSync(`${LESSON}/worlds`).filter((name) => name.endsWith('.json'))
    .map((name) => [`worlds/${name}`, `${LESSON}/worlds/${name}`]);
  return [['world.schema.json', `${LESSON}/world.schema.json`], ['worlds/lesson.json', `${LESSON}/world.json`], ...worlds];
}

export function worldsPlugin() {
  return {
    name: 'multiple-heads-worlds',
    apply: 'build',
    generateBundle() {
      for (const [fileName, source] of worldFiles()) {
        const data = JSON.parse(readFileSync(source, 'utf8'));
        if (fileName.startsWith('worlds/')) data.$schema = '../world.schema.json';
        this.emitFile({ type: 'asset', fileName, source: `${JSON.stringify(data, null, 1)}\n` });
      }
    },
  };
}
