// The messages each one-widget entry carries (scripts/lib/entry-messages.mjs, used by
// vite.widgets.config.js): the groups its code names, found by reading the modules it
// reaches. A group it misses would leave a widget showing a key instead of a text, so the
// reader's known cases are checked here: a key in shared code (the page links' group, not
// the whole layer group they once were in), a template key (`learnerCopy.${key}`), a module reached only
// through import.meta.glob (the widget's own static renderer, not the others'), and what
// stays out.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { catalogOf, filesOf, groupsNamedBy, ownGroups, sharedGroups } from '../../scripts/lib/entry-messages.mjs';
import { WIDGET_ENTRIES } from '../../web/widgets/registry.js';
import en from '../../lessons/multiple-heads/locales/en.json' with { type: 'json' };

test('a widget entry names its own group, the base\'s, and the groups of the shared code it reaches', () => {
  const blend = groupsNamedBy('blend');
  for (const group of ['blend', 'base', 'common', 'stateError', 'pageLinks', 'staticFigure']) assert.ok(blend.includes(group), `blend names ${group}: ${blend}`);
  for (const group of ['layer', 'headSplitting', 'training', 'practice', 'embed', 'learnerCopy']) assert.ok(!blend.includes(group), `blend does not name ${group}`);
});

test('template keys and modules reached only by import.meta.glob count', () => {
  assert.ok(groupsNamedBy('practice').includes('learnerCopy'), 'learner-copy.js words `learnerCopy.${key}`');
  // The static renderers are reached through widget-static-figure.js's glob only.
  for (const name of ['blend', 'layer']) {
    assert.ok(filesOf(name).includes(`web/widgets/${name}/${name}-static.js`), `${name} reaches its static renderer`);
    assert.deepEqual(filesOf(name).filter((file) => /-static\.js$/.test(file) && !file.includes(`/${name}/`)), [], `${name}: no other widget's renderer`);
  }
});

test('shared groups are those every entry names; each entry adds its own; the API needs nothing more', () => {
  const shared = sharedGroups(WIDGET_ENTRIES);
  assert.ok(shared.includes('staticFigure'), 'static-figure.js words a note as it loads: registered with the shared code');
  for (const name of WIDGET_ENTRIES) {
    const own = ownGroups(name, WIDGET_ENTRIES);
    assert.deepEqual(own.filter((group) => shared.includes(group)), [], `${name}: nothing twice`);
    assert.deepEqual([...shared, ...own].sort(), groupsNamedBy(name).sort(), `${name}: every group it names`);
  }
  assert.deepEqual(ownGroups('api', WIDGET_ENTRIES), []);
});

test('a catalog cut to groups keeps them whole and skips groups a locale lacks', () => {
  assert.deepEqual(catalogOf('en', ['blend', 'no-such-group']), { blend: en.blend });
});
