// Minifies the UI kit's CSS, which lives in template literals of web/ui/styles*.js (so that
// Node tests and pages without a bundler can read it), as Vite minifies the widgets' own
// .css files: comments and indentation out, about 1 kB gzipped for the whole kit (issue 23).
// Interpolations (${…}) stand in the CSS as var(--kit-slot-N) while Lightning CSS minifies
// it (a value position, so it parses), then go back; a literal that does not parse as CSS
// (not a stylesheet) is left as it is.
import { transform } from 'lightningcss';

const KIT_STYLES = /\/web\/ui\/styles(-[a-z]+)?\.js$/;
const TEMPLATE = /`((?:[^`\\]|\\.)*)`/g;

/** A template literal's CSS, minified, its ${…} kept; null if it is not CSS. */
export function minifyTemplateCss(body) {
  const slots = [];
  const css = body.replace(/\$\{([^}]*)\}/g, (whole) => `var(--kit-slot-${slots.push(whole) - 1})`);
  if (!/[{}]/.test(css)) return null;
  try {
    const { code, warnings } = transform({ filename: 'kit.css', code: Buffer.from(css), minify: true, errorRecovery: false });
    if (warnings.length) return null;
    return code.toString().replace(/var\(--kit-slot-(\d+)\)/g, (_, i) => slots[Number(i)]).replace(/`/g, '\\`');
  } catch {
    return null;
  }
}

export const kitCssPlugin = () => ({
  name: 'multiple-heads-kit-css',
  apply: 'build',
  transform(code, id) {
    if (!KIT_STYLES.test(id)) return null;
    return { code: code.replace(TEMPLATE, (whole, body) => { const min = minifyTemplateCss(body); return min === null ? whole : `\`${min}\``; }), map: null };
  },
});
