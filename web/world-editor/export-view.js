// Export: the world as a file (<title>.json, a Blob through a[download]) or on the
// clipboard. Only a world without problems is exported: a file the widgets would refuse is
// no use on a course page (the draft itself is kept in the browser meanwhile).
import { element } from '../ui/dom.js';
import { exportFileName, exportText } from './export.js';

export class ExportView {
  #editor;

  constructor(editor) {
    this.#editor = editor;
    this.download = element('button', { type: 'button', className: 'primary', textContent: 'Download the world' });
    this.copy = element('button', { type: 'button', textContent: 'Copy the JSON' });
    this.fileName = element('code', { className: 'file-name' });
    this.message = element('p', { className: 'export-message', role: 'status', id: 'export-message' });
    this.usage = element('p', { className: 'hint' });
    this.download.addEventListener('click', () => this.#download());
    this.copy.addEventListener('click', () => this.#copy());
    for (const button of [this.download, this.copy]) button.setAttribute('aria-describedby', 'export-message');
    this.element = element('div', { className: 'export' }, [
      element('p', {}, ['The file: ', this.fileName, ', the world exactly as edited, with "$schema" and "formatVersion": 1.']),
      element('div', { className: 'row' }, [this.download, this.copy]), this.message, this.usage,
    ]);
  }

  render(world) {
    // A refusal is about the world as it was: once it has no problems, the refusal goes.
    if (this.#editor.problemCount() === 0 && this.message.textContent.startsWith('Not exported')) this.message.textContent = '';
    const name = exportFileName(world);
    this.fileName.textContent = name;
    this.usage.textContent = `On a course page, save it in the package’s worlds/ folder and write <mha-layer world="worlds/${name}"></mha-layer> (any widget).`;
  }

  // The world, or null with the reason said when it has problems.
  #ready() {
    const count = this.#editor.problemCount();
    if (count === 0) return this.#editor.world();
    this.message.textContent = `Not exported: the world has ${count === 1 ? 'a problem' : `${count} problems`} (listed at the top). Fix ${count === 1 ? 'it' : 'them'} first; your draft is kept in this browser meanwhile.`;
    return null;
  }

  #download() {
    const world = this.#ready();
    if (!world) return;
    const url = URL.createObjectURL(new Blob([exportText(world)], { type: 'application/json' }));
    const link = element('a', { href: url, download: exportFileName(world) });
    document.body.append(link);
    link.click();
    link.remove();
    // Revoked after the browser has started the download.
    setTimeout(() => URL.revokeObjectURL(url), 10000);
    this.message.textContent = `Downloaded ${exportFileName(world)}.`;
  }

  async #copy() {
    const world = this.#ready();
    if (!world) return;
    try {
      await navigator.clipboard.writeText(exportText(world));
      this.message.textContent = 'Copied the world’s JSON to the clipboard.';
    } catch (error) {
      this.message.textContent = `The browser did not allow copying (${error.message}): use Download instead.`;
    }
  }
}
