// Part of npm run build (alone: node scripts/build-scorm-package.mjs [outDir]): the practice
// as SCORM packages for a learning-management system,
//   dist/scorm/multiple-heads-practice-scorm12.zip     SCORM 1.2
//   dist/scorm/multiple-heads-practice-scorm2004.zip   SCORM 2004 4th edition
// each an imsmanifest.xml and one SCO, index.html: a single-file page of the practice
// (scripts/build-single-file.mjs: the practice widget bundled into one inline script with its
// styles, workers and wasm, under the file's own CSP), whose body is the practice: the
// learner's copy with report="scorm" (its status line), then every idea's problems that need
// no widget on the page (kinds number and choose). The file's CSP hashes cover its script
// and style only, so the body is ours to set.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { zipSync, strToU8 } from 'fflate';
import { bundle, singleFileHtml } from './build-single-file.mjs';
import { WIDGETS } from '../web/widgets/registry.js';
import { IDEAS, blockProblems } from '../web/widgets/practice/practice-data.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SCO_KINDS = ['number', 'choose'];
export const PACKAGES = { '1.2': 'multiple-heads-practice-scorm12.zip', 2004: 'multiple-heads-practice-scorm2004.zip' };
const TITLE = 'Multiple Heads: practice';
const IDENTIFIER = 'multiple-heads-practice';
const escapeXml = (text) => text.replace(/[&<>"]/g, (c) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot' }[c]};`);

/** The SCO's page: the single-file practice page with the practice as its body. */
export function scoHtml(singleFile) {
  const ideas = IDEAS.filter((idea) => blockProblems(idea.id, SCO_KINDS).length > 0);
  const blocks = ideas.map((idea) => `<section aria-labelledby="idea-${idea.id}"><h2 id="idea-${idea.id}">${escapeXml(idea.title)}</h2>
<mha-practice idea="${idea.id}" kinds="${SCO_KINDS.join(' ')}" heading-level="3"><p>These practice problems need JavaScript and WebAssembly.</p></mha-practice></section>`);
  const main = `<main id="embed-root"><h1>${escapeXml(TITLE)}</h1>
<mha-practice report="scorm" heading-level="2"></mha-practice>
${blocks.join('\n')}
</main>`;
  const out = singleFile.replace(/<main id="embed-root">[\s\S]*?<\/main>/, () => main).replace(/<title>[^<]*<\/title>/, `<title>${escapeXml(TITLE)}</title>`);
  if (out === singleFile || !out.includes('report="scorm"')) throw new Error('the single-file practice page has no <main id="embed-root"> to fill');
  return out;
}

const RESOURCE = (scormType) => `  <resources>
    <resource identifier="sco" type="webcontent" ${scormType}="sco" href="index.html">
      <file href="index.html"/>
    </resource>
  </resources>`;

/** imsmanifest.xml for SCORM 1.2 (IMS CP 1.1.2, ADL CP 1.2) or 2004 4th edition (IMS CP 1.1.4, ADL CP 1.3). */
export function manifest(version) {
  const head = version === '1.2'
    ? `<manifest identifier="${IDENTIFIER}" version="1.0"
  xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2"
  xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2"
  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
  xsi:schemaLocation="http://www.imsproject.org/xsd/imscp_rootv1p1p2 imscp_rootv1p1p2.xsd http://www.imsglobal.org/xsd/imsmd_rootv1p2p1 imsmd_rootv1p2p1.xsd http://www.adlnet.org/xsd/adlcp_rootv1p2 adlcp_rootv1p2.xsd">
  <metadata>
    <schema>ADL SCORM</schema>
    <schemaversion>1.2</schemaversion>
  </metadata>`
    : `<manifest identifier="${IDENTIFIER}" version="1"
  xmlns="http://www.imsglobal.org/xsd/imscp_v1p1"
  xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_v1p3"
  xmlns:adlseq="http://www.adlnet.org/xsd/adlseq_v1p3"
  xmlns:adlnav="http://www.adlnet.org/xsd/adlnav_v1p3"
  xmlns:imsss="http://www.imsglobal.org/xsd/imsss"
  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
  xsi:schemaLocation="http://www.imsglobal.org/xsd/imscp_v1p1 imscp_v1p1.xsd http://www.adlnet.org/xsd/adlcp_v1p3 adlcp_v1p3.xsd http://www.adlnet.org/xsd/adlseq_v1p3 adlseq_v1p3.xsd http://www.adlnet.org/xsd/adlnav_v1p3 adlnav_v1p3.xsd http://www.imsglobal.org/xsd/imsss imsss_v1p0.xsd">
  <metadata>
    <schema>ADL SCORM</schema>
    <schemaversion>2004 4th Edition</schemaversion>
  </metadata>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
${head}
  <organizations default="org">
    <organization identifier="org">
      <title>${escapeXml(TITLE)}</title>
      <item identifier="practice" identifierref="sco" isvisible="true">
        <title>${escapeXml(TITLE)}</title>
      </item>
    </organization>
  </organizations>
${RESOURCE(version === '1.2' ? 'adlcp:scormtype' : 'adlcp:scormType')}
</manifest>
`;
}

/** The package's bytes: imsmanifest.xml and index.html at its root. */
export function scormPackage(version, singleFile) {
  // A fixed date: the same inputs give the same zip, byte for byte.
  const mtime = new Date(Date.UTC(2026, 0, 1));
  return zipSync({ 'imsmanifest.xml': [strToU8(manifest(version)), { mtime }], 'index.html': [strToU8(scoHtml(singleFile)), { mtime }] }, { level: 9 });
}

/**
 * The single-file page with the practice's script: the single-file build's page (its CSP,
 * hashes, style), whose body scoHtml replaces.
 */
export async function practiceSingleFile() {
  return singleFileHtml(Object.keys(WIDGETS)[0], await bundle('practice'));
}

/** Writes both packages into `outDir`; returns their paths and sizes. */
export async function buildScormPackages(outDir = path.join(ROOT, 'dist/scorm')) {
  const html = await practiceSingleFile();
  mkdirSync(outDir, { recursive: true });
  return Object.entries(PACKAGES).map(([version, name]) => {
    const bytes = scormPackage(version, html);
    const file = path.join(outDir, name);
    writeFileSync(file, bytes);
    return { file, bytes: bytes.length };
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const outDir = process.argv[2] ? path.resolve(process.argv[2]) : undefined;
  for (const { file, bytes } of await buildScormPackages(outDir)) console.log(`${path.relative(ROOT, file)}  ${(bytes / 1024).toFixed(0)} kB`);
}
