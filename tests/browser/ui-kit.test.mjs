// The UI kit (web/ui/) in Chromium, on its gallery page (web/examples/ui-kit.html) under
// the strict CSP: real mouse drags, touch drags (CDP touch events, so pointerType is
// "touch"), keyboard, proposals and refusals, read-only, one tab stop per component,
// target sizes, reflow at 320 px, reduced motion, axe in light and dark, screenshots.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pageTurns, screenshot, useSiteAndBrowser } from './browser.mjs';
import { WCAG22, axeViolations } from './axe.mjs';

const session = useSiteAndBrowser();
const URL_PATH = 'examples/ui-kit.html';

// The tests take turns with one page (pageTurns), each in a new document of the gallery.
const galleryPage = pageTurns(() => session.browser);

async function open(options = {}) {
  const { page, problems } = await galleryPage(session.server.url + URL_PATH, options.viewport);
  await page.waitForFunction(() => window.gallery?.bars);
  return { page, problems };
}

/** A page with touch input (hasTouch) and the same watch for errors. */
async function openTouch() {
  const page = await session.browser.newPage({ viewport: { width: 420, height: 800 }, hasTouch: true, isMobile: true });
  const problems = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
  await page.goto(session.server.url + URL_PATH);
  await page.waitForFunction(() => window.gallery?.bars);
  const cdp = await page.context().newCDPSession(page);
  const touch = async (type, x, y) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints: type === 'touchEnd' ? [] : [{ x, y }] });
  return { page, problems, touch };
}

async function centre(locator) {
  await locator.scrollIntoViewIfNeeded();
  const box = await locator.boundingBox();
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

const woCell = (page, r, c) => page.locator(`table[aria-label="W_O, 6 by 6, editable"] td.ui-cell[data-row="${r}"][data-col="${c}"]`);
const woValue = (page, r, c) => page.evaluate(([r, c]) => window.gallery.woGrid.data[r * 6 + c], [r, c]);
const budget = (page) => page.evaluate(() => window.gallery.budgetBar.weights);
const proposals = (page, component) => page.evaluate((c) => window.gallery.proposals.filter((p) => p.component === c), component);
const near = (a, b, eps = 1e-4) => Math.abs(a - b) < eps;

test('MatrixGrid: a mouse drag up raises the cell, down lowers it, through onPropose', async () => {
  const { page, problems } = await open();
  const before = await woValue(page, 1, 1);
  const { x, y } = await centre(woCell(page, 1, 1));
  await page.mouse.move(x, y);
  await page.mouse.down();
  for (let i = 1; i <= 5; i++) await page.mouse.move(x + 40, y - i * 6); // leaves the cell: pointer capture keeps it
  await page.mouse.up();
  const after = await woValue(page, 1, 1);
  assert.ok(near(after, before + 0.3, 1e-3), `${before} -> ${after}`);
  assert.ok((await proposals(page, 'wo')).length >= 2);
  assert.equal(await page.evaluate(() => document.activeElement.dataset.row + document.activeElement.dataset.col), '11');
  // The cell's colour follows (in place: the same element, a new shade: its class sets --t).
  const shade = await woCell(page, 1, 1).evaluate((el) => ({ css: getComputedStyle(el).getPropertyValue('--t').trim(), classes: [...el.classList].filter((c) => /^ui-t-?\d+$/.test(c)) }));
  const step = Math.round((after / 2) * 100);
  assert.deepEqual(shade, { css: String(step / 100), classes: [`ui-t${step}`] });
  // Down past the limit of ±2: refused, the message is shown, the last good value stays.
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x, y + 400, { steps: 4 });
  await page.mouse.up();
  const refused = await woValue(page, 1, 1);
  assert.ok(refused >= -2 && refused <= 2);
  assert.match(await page.locator('.ui-matrix').first().locator('.ui-error').textContent(), /The core refused/);
  assert.deepEqual(problems, []);
});

test('MatrixGrid: a touch drag changes the cell (touch-action none), and does not scroll the page', async () => {
  const { page, problems, touch } = await openTouch();
  const cell = woCell(page, 0, 2);
  const before = await woValue(page, 0, 2);
  const { x, y } = await centre(cell);
  const scrollBefore = await page.evaluate(() => scrollY);
  await touch('touchStart', x, y);
  for (let i = 1; i <= 4; i++) await touch('touchMove', x, y - i * 5);
  await touch('touchEnd');
  const after = await woValue(page, 0, 2);
  assert.ok(near(after, before + 0.2, 1e-3), `${before} -> ${after}`);
  assert.equal(await page.evaluate(() => scrollY), scrollBefore);
  assert.equal(await cell.evaluate((el) => getComputedStyle(el).touchAction), 'none');
  assert.deepEqual(problems, []);
  await page.close();
});

test('MatrixGrid: keyboard moves (roving), steps, opens a field for an exact value, Escape cancels', async () => {
  const { page, problems } = await open();
  await woCell(page, 0, 0).focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowDown');
  const focused = () => page.evaluate(() => document.activeElement.dataset.row + document.activeElement.dataset.col);
  assert.equal(await focused(), '11');
  assert.equal(await page.locator('table[aria-label^="W_O"] [tabindex="0"]').count(), 1);
  const start = await woValue(page, 1, 1);
  await page.keyboard.press('+');
  assert.ok(near(await woValue(page, 1, 1), start + 0.1, 1e-4));
  await page.keyboard.press('-');
  await page.keyboard.press('Shift+ArrowUp'); // finer step
  assert.ok(near(await woValue(page, 1, 1), start + 0.01, 1e-4));
  assert.match(await page.locator('.ui-matrix').first().locator('[aria-live]').textContent(), /row A2, output 2 is now/);
  // Typing a digit opens the in-cell field with that digit.
  await page.keyboard.type('1.25');
  const field = page.locator('.ui-cell-editor input');
  assert.equal(await field.inputValue(), '1.25');
  assert.ok(near(await woValue(page, 1, 1), 1.25));
  await page.keyboard.press('Enter');
  assert.equal(await field.count(), 0);
  assert.equal(await focused(), '11');
  // Text the core refuses stays, with the message; Escape puts back the value from before.
  await page.keyboard.press('F2');
  await field.fill('3');
  assert.equal(await field.getAttribute('aria-invalid'), 'true');
  assert.match(await page.locator('.ui-cell-editor .ui-error').textContent(), /refused/);
  assert.equal(await field.inputValue(), '3');
  assert.ok(near(await woValue(page, 1, 1), 1.25));
  await field.fill('0.75');
  await page.keyboard.press('Escape');
  assert.equal(await field.count(), 0);
  assert.ok(near(await woValue(page, 1, 1), 1.25), 'Escape cancels the edit');
  // PageUp (1.0) would leave ±2: refused; the cell says so.
  await page.keyboard.press('PageUp');
  assert.ok(near(await woValue(page, 1, 1), 1.25));
  assert.equal(await woCell(page, 1, 1).getAttribute('aria-invalid'), 'true');
  assert.deepEqual(problems, []);
});

test('MatrixGrid motion: a small key step and a drag recolour at once; a big step and a typed value ease', async () => {
  const { page, problems } = await open();
  // Every colour transition that starts in the editable grid, by cell (recorded as they
  // start, so a busy machine cannot miss a 120 ms one).
  await page.evaluate(() => {
    window.eased = [];
    document.querySelector('table[aria-label="W_O, 6 by 6, editable"]').addEventListener('transitionrun', (event) => {
      if (event.propertyName === 'background-color') window.eased.push(event.target.dataset.row + event.target.dataset.col);
    });
  });
  const eased = async () => {
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    return page.evaluate(() => window.eased.splice(0));
  };
  const start = await woValue(page, 0, 0);
  await woCell(page, 0, 0).focus();
  await page.keyboard.press('+');
  await page.keyboard.press('Shift+ArrowUp');
  assert.ok(near(await woValue(page, 0, 0), start + 0.11, 1e-4), 'both small steps were taken');
  assert.deepEqual(await eased(), [], 'small key steps are shown at once');
  await page.keyboard.press('PageUp');
  assert.ok(near(await woValue(page, 0, 0), start + 1.11, 1e-4));
  assert.deepEqual(await eased(), ['00'], 'a big step eases the cell');
  const { x, y } = await centre(woCell(page, 0, 1));
  const before = await woValue(page, 0, 1);
  await page.mouse.move(x, y);
  await page.mouse.down();
  for (let i = 1; i <= 4; i++) await page.mouse.move(x, y - 8 * i);
  await page.mouse.up();
  assert.ok(await woValue(page, 0, 1) > before, 'the drag raised the cell');
  assert.deepEqual(await eased(), [], 'a drag is shown at once');
  await woCell(page, 0, 0).focus();
  await page.keyboard.type('0.5');
  await page.keyboard.press('Enter');
  assert.ok(near(await woValue(page, 0, 0), 0.5));
  assert.ok((await eased()).includes('00'), 'a typed value eases');
  assert.deepEqual(problems, []);
});

test('MatrixGrid: the wheel changes only the focused cell; elsewhere it scrolls the page', async () => {
  const { page, problems } = await open();
  const cell = woCell(page, 2, 2);
  const { x, y } = await centre(cell);
  const before = await woValue(page, 2, 2);
  await page.mouse.move(x, y);
  const top = await page.evaluate(() => scrollY);
  await page.mouse.wheel(0, 100); // not focused: the page scrolls, the value stays
  await page.waitForFunction((y0) => scrollY !== y0, top);
  assert.equal(await woValue(page, 2, 2), before);
  await cell.focus();
  const c2 = await centre(cell);
  await page.mouse.move(c2.x, c2.y);
  const scroll = await page.evaluate(() => scrollY);
  await page.mouse.wheel(0, -100);
  await page.waitForFunction((v) => window.gallery.woGrid.data[2 * 6 + 2] !== v, before);
  assert.ok(near(await woValue(page, 2, 2), before + 0.1, 1e-4));
  assert.equal(await page.evaluate(() => scrollY), scroll);
  assert.deepEqual(problems, []);
});

test('MatrixGrid read-only: drags, keys, typing and wheel propose nothing; Enter and clicks pick', async () => {
  const { page, problems } = await open();
  await page.getByRole('button', { name: 'Read-only W_O' }).click();
  const count = (await proposals(page, 'wo')).length;
  const { x, y } = await centre(woCell(page, 3, 3));
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x, y - 40, { steps: 4 });
  await page.mouse.up();
  await page.keyboard.press('+');
  await page.keyboard.press('PageUp');
  await page.keyboard.press('5');
  await page.keyboard.press('Enter');
  await page.mouse.wheel(0, -100);
  assert.equal((await proposals(page, 'wo')).length, count);
  assert.equal(await page.locator('.ui-cell-editor').count(), 0);
  assert.equal(await page.locator('table[aria-label^="W_O"]').getAttribute('aria-readonly'), 'true');
  // The read-only concatenation grid picks rows and cells.
  const concat = page.locator('table[aria-label^="Concatenated"]');
  await concat.locator('th.ui-row-label', { hasText: 'said' }).click();
  await concat.locator('td.ui-cell[data-row="3"][data-col="4"]').click();
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('Enter');
  assert.deepEqual((await proposals(page, 'concat-pick')).map(({ r, c }) => [r, c]), [[2, null], [3, 4], [2, 4]]);
  assert.deepEqual(problems, []);
});

test('BudgetBar: a mouse drag of a boundary moves weight between those two tokens only', async () => {
  const { page, problems } = await open();
  const before = await budget(page);
  const handle = page.locator('.ui-budget').first().locator('.ui-budget-handle[data-left="1"]'); // between “researcher” and “said”
  const track = await page.locator('.ui-budget-track').first().boundingBox();
  const { x, y } = await centre(handle);
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(track.x + track.width * 0.3, y, { steps: 5 });
  await page.mouse.up();
  const after = await budget(page);
  assert.ok(near(after[1], 0.25, 0.01), `researcher ${after[1]}`);
  assert.ok(near(after[1] + after[2], before[1] + before[2]));
  for (const i of [0, 3, 4, 5, 6]) assert.equal(after[i], before[i]);
  assert.ok(near(after.reduce((s, w) => s + w, 0), 1));
  // What is written under the bar adds up to the total shown.
  const labels = await page.locator('.ui-budget').first().locator('.ui-budget-label').allTextContents();
  const written = labels.map((t) => Number(t.match(/(\d\.\d\d)$/)[1])).reduce((s, w) => s + w, 0);
  assert.equal(Math.round(written * 100), 100, labels.join(' | '));
  // The dragged token's label shows its new weight (labels are updated in place while the
  // pieces stay the same; a stale label would still add up to 1.00).
  const researcher = await page.locator('.ui-budget').first().locator('.ui-budget-label[data-indices="1"]').textContent();
  assert.ok(near(Number(researcher.match(/(\d\.\d\d)$/)[1]), after[1], 0.011), `${researcher} for ${after[1]}`);
  assert.equal(await page.locator('.ui-budget-total').first().textContent(), 'Total 1.00');
  assert.deepEqual(problems, []);
});

test('BudgetBar: a touch drag of a boundary works', async () => {
  const { page, problems, touch } = await openTouch();
  const handle = page.locator('.ui-budget').first().locator('.ui-budget-handle[data-left="3"]'); // between “it” and “works”
  const before = await budget(page);
  const { x, y } = await centre(handle);
  await touch('touchStart', x, y);
  for (let i = 1; i <= 4; i++) await touch('touchMove', x + i * 5, y);
  await touch('touchEnd');
  const after = await budget(page);
  assert.ok(after[3] > before[3] + 0.02, `${before[3]} -> ${after[3]}`);
  assert.ok(near(after[3] + after[4], before[3] + before[4]));
  assert.deepEqual(problems, []);
  await page.close();
});

test('BudgetBar: keyboard chooses tokens (roving), steps with rescaling, types exact values; refusals shown', async () => {
  const { page, problems } = await open();
  const bar = page.locator('.ui-budget').first();
  await bar.locator('[role="slider"]').first().focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight'); // “it”
  assert.equal(await page.evaluate(() => document.activeElement.getAttribute('aria-label')), 'Weight on “it”');
  assert.equal(await bar.locator('[tabindex="0"]').count(), 1);
  const before = await budget(page);
  await page.keyboard.press('ArrowUp');
  let after = await budget(page);
  assert.ok(near(after[3], 0.31));
  assert.ok(near(after[1] / after[0], before[1] / before[0]), 'the others keep their proportions');
  assert.ok(near(after.reduce((s, w) => s + w, 0), 1));
  assert.match(await bar.locator('[aria-live]').textContent(), /“it” now gets 0\.31 of the budget/);
  await page.keyboard.press('PageDown');
  assert.ok(near((await budget(page))[3], 0.21));
  await page.keyboard.press('Enter');
  const field = bar.locator('input');
  await field.fill('0.95');
  assert.match(await bar.locator('.ui-error').first().textContent(), /may exceed 0.9/);
  assert.ok(near((await budget(page))[3], 0.21));
  await field.fill('0.5');
  await page.keyboard.press('Enter');
  after = await budget(page);
  assert.ok(near(after[3], 0.5));
  assert.equal(await bar.locator('input').count(), 0);
  assert.equal(await page.evaluate(() => document.activeElement.getAttribute('aria-label')), 'Weight on “it”');
  // The read-only bar moves between tokens but changes nothing.
  const readonlyBar = page.locator('.ui-budget').nth(1);
  await readonlyBar.locator('[role="slider"]').first().focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('Enter');
  assert.deepEqual(await page.evaluate(() => window.gallery.paletteBar.weights), [0.25, 0.35, 0.3, 0.1]);
  assert.equal(await readonlyBar.locator('input').count(), 0);
  assert.equal(await readonlyBar.locator('.ui-budget-handle').first().isVisible(), false);
  assert.deepEqual(problems, []);
});

test('Heatmap: click, tap and keyboard pick the query and key; the picked row is outlined', async () => {
  const { page, problems } = await open();
  const heat = page.locator('table[aria-label^="Head B"]');
  await heat.locator('td.ui-cell[data-row="3"][data-col="1"]').click();
  assert.equal(await heat.locator('tr.ui-selected').getAttribute('data-row'), '3');
  await heat.locator('th.ui-row-label', { hasText: 'works' }).click();
  assert.equal(await heat.locator('tr.ui-selected').getAttribute('data-row'), '4');
  // Clicking a row label moves the grid's focus to that row, so the keys carry on from there.
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('Enter');
  const picks = (await proposals(page, 'heatmap')).map(({ query, key }) => [query, key]);
  assert.deepEqual(picks, [[3, 1], [4, null], [3, 0]]);
  assert.equal(await heat.locator('[tabindex="0"]').count(), 1);
  assert.match(await page.locator('.ui-heatmap').first().locator('.ui-readout').textContent(), /query “it”, key “the”: 0\.\d\d/);
  const t = await openTouch();
  await t.page.locator('table[aria-label^="Head B"] td.ui-cell[data-row="1"][data-col="4"]').tap();
  assert.deepEqual((await proposals(t.page, 'heatmap')).map(({ query, key }) => [query, key]), [[1, 4]]);
  assert.deepEqual([...problems, ...t.problems], []);
  await t.page.close();
});

// Painted rows against cells: every value's colour where its band is drawn (the computed
// background's gradient, stops resolved by Chromium, read at the band's middle) is the
// colour of the cell drawing the same value, dimmed or not, in both themes; the row is as
// wide as its cells were; its name lists their values.
test('MatrixGrid paintRows: each row one cell, in the colours, width and words of its cells (light and dark)', async () => {
  const { page, problems } = await open({ viewport: { width: 1000, height: 800 } });
  // Then in light again after new values (every row drawn again), and after a highlight of
  // another row (only the rows whose dimming or rings change are drawn again).
  for (const scheme of ['light', 'dark', 'light after new values', 'light after another highlight']) {
    if (scheme.includes('after')) {
      await page.evaluate((newValues) => {
        for (const grid of window.gallery.painted.diverging) {
          if (newValues) grid.setData(Array.from(grid.data, (v, k) => (k % 3 === 0 ? -v : v * 0.5)));
          else grid.highlight({ rows: [4], cols: [5], cells: [[3, 2], [3, 3]] });
        }
      }, scheme.includes('values'));
    }
    await page.emulateMedia({ colorScheme: scheme.split(' ')[0] });
    const pairs = await page.evaluate(() => {
      const canvas = document.createElement('canvas');
      canvas.width = 1;
      canvas.height = 1;
      const context = canvas.getContext('2d', { willReadFrequently: true });
      // Any CSS colour as [r, g, b, a] bytes, as the browser paints it.
      const rgba = (colour) => {
        context.clearRect(0, 0, 1, 1);
        context.fillStyle = '#000';
        context.fillStyle = colour;
        context.fillRect(0, 0, 1, 1);
        return [...context.getImageData(0, 0, 1, 1).data];
      };
      // The top-level items of a CSS list: "a(b, c), d" -> ["a(b, c)", "d"].
      const split = (text) => {
        const out = [];
        let depth = 0;
        let start = 0;
        for (let i = 0; i < text.length; i++) {
          if (text[i] === '(') depth++;
          else if (text[i] === ')') depth--;
          else if (text[i] === ',' && depth === 0) { out.push(text.slice(start, i).trim()); start = i + 1; }
        }
        out.push(text.slice(start).trim());
        return out;
      };
      // A stop's position in px of an image `size` px wide: "40%", "12px", "calc(40% - 2px)".
      const position = (text, size) => {
        let px = 0;
        for (const [, sign, number, unit] of text.matchAll(/([+-]?)\s*(\d*\.?\d+)(%|px)/g)) {
          px += (sign === '-' ? -1 : 1) * Number(number) * (unit === '%' ? size / 100 : 1);
        }
        return px;
      };
      // The colour at x px of a row's painted layer (the last one, as wide as the row and its
      // last gap): the last stop at or before x. Stops are "<colour> <position>".
      const paintedAt = (td, x) => {
        const layers = split(getComputedStyle(td).backgroundImage);
        const gradient = layers[layers.length - 1];
        const size = td.getBoundingClientRect().width + 1;
        const stops = split(gradient.slice(gradient.indexOf('(') + 1, -1)).slice(1).map((stop) => {
          const at = stop.startsWith('calc(') || !stop.includes(' calc(') ? stop.lastIndexOf(' ') : stop.indexOf(' calc(');
          return { colour: stop.slice(0, at), x: position(stop.slice(at + 1), size) };
        });
        return stops.filter((stop) => stop.x <= x + 0.01).pop().colour;
      };
      return Object.entries(window.gallery.painted).map(([name, [cells, painted]]) => {
        const colours = [];
        painted.rowPaints.forEach((td, r) => {
          const box = td.getBoundingClientRect();
          const pitch = (box.width + 1) / painted.cols;
          for (let c = 0; c < painted.cols; c++) {
            colours.push({
              r, c, cell: rgba(getComputedStyle(cells.cells[r * cells.cols + c]).backgroundColor),
              painted: rgba(paintedAt(td, c * pitch + (pitch - 1) / 2)),
            });
          }
        });
        // The gaps' layer (the first) has its period at the bands' pitch: the surface colour
        // from the last px of each column's share, however wide the columns are.
        const gaps = painted.rowPaints.map((td) => {
          const layer = split(getComputedStyle(td).backgroundImage)[0];
          const stops = split(layer.slice(layer.indexOf('(') + 1, -1)).slice(1);
          const size = td.getBoundingClientRect().width + 1;
          const surfaceFrom = stops[2].slice(stops[2].indexOf(' calc(') + 1);
          return [position(surfaceFrom, size), size / painted.cols - 1];
        });
        const rowsOfCells = cells.rowElements.map((tr) => [...tr.querySelectorAll('td.ui-cell')]);
        return {
          name, colours, gaps,
          widths: painted.rowPaints.map((td, r) => [td.getBoundingClientRect().width,
            rowsOfCells[r].at(-1).getBoundingClientRect().right - rowsOfCells[r][0].getBoundingClientRect().left]),
          names: painted.rowPaints.map((td, r) => [td.getAttribute('aria-label'), rowsOfCells[r].map((cell) => cell.getAttribute('aria-label')).join('; ')]),
          lit: painted.rowPaints.map((td, r) => [td.dataset.lit,
            cells.table.classList.contains('ui-dimmed') ? rowsOfCells[r].flatMap((cell, c) => (cell.classList.contains('ui-lit') ? [String(c)] : [])).join(' ') : 'all']),
          cellCount: painted.table.querySelectorAll('tbody td').length,
        };
      });
    });
    assert.equal(pairs.length, 2);
    for (const pair of pairs) {
      assert.equal(pair.cellCount, pair.names.length, `${pair.name}: one td per row`);
      for (const { r, c, cell, painted } of pair.colours) {
        assert.ok(cell.every((v, i) => Math.abs(v - painted[i]) <= 1), `${scheme}, ${pair.name} [${r}, ${c}]: cell ${cell}, painted ${painted}`);
      }
      for (const [painted, cells] of pair.widths) assert.ok(Math.abs(painted - cells) < 0.5, `${pair.name}: row ${painted} px wide, its cells ${cells}`);
      for (const [gapAt, bandEnd] of pair.gaps) assert.ok(Math.abs(gapAt - bandEnd) < 0.05, `${pair.name}: a gap at ${gapAt} px, a band ends at ${bandEnd}`);
      for (const [painted, cells] of pair.names) assert.equal(painted, cells);
      for (const [painted, cells] of pair.lit) assert.equal(painted, cells);
    }
    // The dimmed and the lit colours differ (the check would see a highlight lost).
    const litRow = scheme.includes('another') ? 4 : 1;
    const dimmed = pairs[0].colours.find(({ r, c }) => r === 0 && c === 0).painted;
    const lit = pairs[0].colours.find(({ r, c }) => r === litRow && c === 0).painted;
    assert.notDeepEqual(dimmed, lit);
  }
  // The column under the pointer: a click on a painted row's band reads as that cell.
  const cellAt = await page.evaluate(() => {
    const grid = window.gallery.painted.diverging[1];
    const td = grid.rowPaints[2];
    const box = td.getBoundingClientRect();
    const pitch = (box.width + 1) / grid.cols;
    return [0, 3, 5].map((c) => grid.cellAt({ target: td, clientX: box.left + c * pitch + 2 }));
  });
  assert.deepEqual(cellAt, [{ row: 2, col: 0 }, { row: 2, col: 3 }, { row: 2, col: 5 }]);
  assert.deepEqual(problems, []);
});

// element (dom.js), the kit's terse DOM building: role and aria* as attributes (null sets
// nothing), dataset names as the DOMStringMap writes them, properties where the element has
// them (colSpan, tabIndex, textContent), other names as attributes, children appended.
test('element: role and aria* as attributes, dataset, properties and attributes, children', async () => {
  const { page, problems } = await open();
  const html = await page.evaluate(() => {
    const { element } = window.gallery;
    const cell = element('td', {
      className: 'ui-cell a', colSpan: 2, tabIndex: -1, role: 'gridcell', ariaLabel: 0.5, ariaHidden: null,
      dataset: { row: '1', fooBar: 'x' }, title: 't', 'data-plain': 'p',
    }, ['one ', element('b', { textContent: 'two' })]);
    const empty = element('p', { role: undefined, ariaLive: 'polite' });
    return [cell.outerHTML, empty.outerHTML];
  });
  assert.deepEqual(html, [
    '<td class="ui-cell a" colspan="2" tabindex="-1" role="gridcell" aria-label="0.5" data-row="1" data-foo-bar="x" title="t" data-plain="p">one <b>two</b></td>',
    '<p aria-live="polite"></p>',
  ]);
  assert.deepEqual(problems, []);
});

// morphChildren (dom.js): a part built afresh on every edit lands on the elements already in
// place. The result is the new nodes, attribute for attribute and text for text; the elements
// that match keep their identity (so the browser lays out only what changed).
test('morphChildren: the children become the new nodes, the matching elements kept', async () => {
  const { page, problems } = await open();
  const result = await page.evaluate(() => {
    const { morphChildren } = window.gallery;
    const host = document.createElement('div');
    document.body.append(host);
    const make = (html) => {
      const template = document.createElement('template');
      template.innerHTML = html;
      return [...template.content.childNodes];
    };
    host.append(...make('<p class="a" title="t">one <b data-x="1">two</b> three</p><span>x</span><em>gone</em>'));
    const [p, span] = host.children;
    const b = p.querySelector('b');
    b.style.setProperty('--w', '1');
    const next = make('<p class="a b" data-k="1">one <b>2</b> three <i>new</i></p><strong>y</strong>');
    next[0].querySelector('b').style.setProperty('--w', '3');
    const fragment = document.createDocumentFragment();
    fragment.append('tail ', document.createElement('hr'));
    const expected = document.createElement('div');
    expected.append(...next.map((node) => node.cloneNode(true)), fragment.cloneNode(true));
    morphChildren(host, [...next, fragment]);
    const out = {
      same: host.innerHTML === expected.innerHTML, html: host.innerHTML,
      keptP: host.children[0] === p, keptB: host.querySelector('b') === b, spanGone: !host.contains(span),
    };
    host.remove();
    return out;
  });
  assert.ok(result.same, result.html);
  assert.deepEqual([result.keptP, result.keptB, result.spanGone], [true, true, true]);
  assert.deepEqual(problems, []);
});

// A redraw (W_O mixing redraws its charts on every step of a cell) keeps the shapes already in
// place and writes only what changed: the result is what a new chart draws, and most shapes
// are the same elements as before.
test('StackedBars: a redraw moves its shapes in place and draws what a new chart would', async () => {
  const { page, problems } = await open();
  const result = await page.evaluate(() => {
    const bars = window.gallery.bars;
    const before = [...bars.plot.children];
    // Other values, one of them 0 (no shape: every shape after it moves up a place), one
    // total fewer, and other colours.
    const parts = [
      { values: [0.1, 0.5, -0.3, 0, 0.2, -0.1], colour: 'var(--ui-head-b)' },
      { values: [0.3, -0.2, 0.1, 0.4, -0.3, 0.2], colour: 'var(--ui-head-a)' },
      { values: [-0.2, 0.1, 0.3, -0.1, 0.2, 0.1] },
    ];
    const options = { totals: [0.2, 0.4, 0.1, 0.3, 0.1, null], columnClasses: ['', 'current'] };
    bars.draw(parts, options);
    const after = [...bars.plot.children];
    const fresh = new bars.constructor({ label: 'the same chart, new', columnLabels: ['1', '2', '3', '4', '5', '6'] });
    fresh.draw(parts, options);
    return {
      same: bars.plot.innerHTML === fresh.plot.innerHTML, shapes: after.length, before: before.length,
      kept: after.filter((node) => before.includes(node)).length,
      coloured: after.filter((node) => node.style.getPropertyValue('--part')).length,
    };
  });
  assert.ok(result.same, 'the redrawn chart is what a new chart draws');
  assert.equal(result.shapes, 1 + 17 + 5 + 6, 'the axis, 17 parts, 5 totals, 6 labels');
  assert.equal(result.before, 1 + 18 + 6 + 6);
  assert.ok(result.kept >= 20, `${result.kept} of ${result.shapes} shapes kept`);
  assert.equal(result.coloured, 11, 'the parts with a colour of their own, and no other');
  assert.deepEqual(problems, []);
});

test('NumberField: invalid text stays with its message, a refusal too, blur brings back the last good value', async () => {
  const { page, problems } = await open();
  const field = page.getByLabel('Sequence length (1 to 64)');
  const message = page.locator(`#${await field.getAttribute('aria-describedby')}`);
  await field.fill('12');
  assert.equal(await page.locator('.gallery-log', { hasText: 'Sequence length: 12.' }).count(), 1);
  await field.fill('12a');
  assert.equal(await field.getAttribute('aria-invalid'), 'true');
  assert.match(await message.textContent(), /plain decimal number/);
  assert.equal(await message.getAttribute('role'), 'alert');
  assert.equal(await field.inputValue(), '12a');
  // A repaint from outside with the same value does not clobber what is being typed.
  await page.evaluate(() => window.gallery.lengthField.setValue(12));
  assert.equal(await field.inputValue(), '12a');
  await field.fill('70');
  assert.match(await message.textContent(), /from 1 to 64/);
  await page.keyboard.press('Tab');
  assert.equal(await field.inputValue(), '12');
  assert.equal(await field.getAttribute('aria-invalid'), 'false');
  assert.equal(await message.textContent(), '');
  // From outside while not focused: shown at once.
  await page.evaluate(() => window.gallery.lengthField.setValue(8));
  assert.equal(await field.inputValue(), '8');
  assert.deepEqual(problems, []);
});

test('one tab stop per component, visible focus, and every target at least 24 x 24 px', async () => {
  const { page, problems } = await open();
  // Tab through the page: each grid, bar and field is reached exactly once.
  const stops = [];
  for (let i = 0; i < 30; i++) {
    await page.keyboard.press('Tab');
    const stop = await page.evaluate(() => {
      const el = document.activeElement;
      const owner = el.closest('table[role="grid"], .ui-budget-track, .ui-number, button');
      return owner ? (owner.getAttribute('aria-label') ?? owner.textContent.trim()) : el.tagName;
    });
    if (stop === 'BODY' || stops.includes(stop)) break;
    stops.push(stop);
  }
  assert.deepEqual(stops, [
    'W_O, 6 by 6, editable', 'Concatenated head outputs, read-only', 'Show values', 'Highlight head B', 'Read-only W_O',
    'An overview map, 16 by 32, compact and read-only', 'Attention budget of “said”, head A', 'Read-only budget, one colour per token',
    'Head B: attention weights, rows are queries, columns are keys', 'Head A at a glance (compact)', 'Sequence length (1 to 64)',
  ]);
  // Focus is visible: the focused cell has an outline of 3 px.
  await woCell(page, 0, 0).focus();
  await page.keyboard.press('ArrowRight');
  const outline = await page.evaluate(() => getComputedStyle(document.activeElement).outlineWidth);
  assert.equal(outline, '3px');
  const small = await page.evaluate(() => {
    const targets = [
      ...document.querySelectorAll('.ui-matrix:not(.ui-compact) td.ui-cell'),
      ...document.querySelectorAll('.ui-pickable:not(.ui-compact) th.ui-row-label'),
      ...document.querySelectorAll('.ui-budget-handle, button, input'),
    ];
    return targets.filter((el) => el.getClientRects().length > 0)
      .map((el) => ({ el, box: el.getBoundingClientRect() }))
      .filter(({ box }) => box.width < 24 - 0.5 || box.height < 24 - 0.5)
      .map(({ el, box }) => `${el.tagName}.${el.className} ${box.width.toFixed(0)}x${box.height.toFixed(0)}`);
  });
  assert.deepEqual(small, []);
  assert.deepEqual(problems, []);
});

test('320 px wide: the page never scrolls sideways; wide grids scroll inside their own box', async () => {
  const { page, problems } = await open({ viewport: { width: 320, height: 800 } });
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth) <= 320);
  const overview = page.locator('.ui-compact .ui-scroll').first();
  const { scrollWidth, clientWidth, overflowX } = await overview.evaluate((el) => ({ scrollWidth: el.scrollWidth, clientWidth: el.clientWidth, overflowX: getComputedStyle(el).overflowX }));
  assert.ok(scrollWidth > clientWidth, 'the 32-column map is wider than the phone');
  assert.equal(overflowX, 'auto');
  assert.deepEqual(problems, []);
});

test('reduced motion: nothing in the kit transitions', async () => {
  const page = await session.browser.newPage({ reducedMotion: 'reduce' });
  await page.goto(session.server.url + URL_PATH);
  await page.waitForFunction(() => window.gallery?.bars);
  const moving = await page.evaluate(() => [...document.querySelectorAll('.ui-kit *')].filter((el) => {
    const style = getComputedStyle(el);
    return style.transitionDuration.split(',').some((t) => parseFloat(t) > 0) || style.animationName !== 'none';
  }).length);
  assert.equal(moving, 0);
  await page.close();
  const normal = await session.browser.newPage();
  await normal.goto(session.server.url + URL_PATH);
  await normal.waitForFunction(() => window.gallery?.bars);
  assert.ok(await normal.evaluate(() => getComputedStyle(document.querySelector('.ui-cell')).transitionDuration) !== '0s', 'the check can see transitions');
  await normal.close();
});

for (const scheme of ['light', 'dark']) {
  test(`axe: no violations on the gallery in ${scheme} (values shown, a field invalid); screenshot`, async () => {
    const { page, problems } = await open({ viewport: { width: 1000, height: 800 } });
    await page.emulateMedia({ colorScheme: scheme });
    const surface = await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
    assert.equal(surface, scheme === 'dark' ? 'rgb(22, 24, 29)' : 'rgb(255, 255, 255)');
    await page.getByRole('button', { name: 'Show values' }).click();
    await page.getByLabel('Sequence length (1 to 64)').fill('x');
    const found = await axeViolations(page, { rules: WCAG22 });
    assert.deepEqual(found, []);
    await page.getByRole('button', { name: 'Show values' }).click();
    await page.getByRole('button', { name: 'Highlight head B' }).click();
    await screenshot(page, `ui-kit-${scheme}`);
    assert.deepEqual(problems, []);
  });
}
