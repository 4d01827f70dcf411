// The author's draft in localStorage, so that a reload, a closed tab or a crash loses
// nothing: the document being edited, the last world the preview showed, and where it
// started from. The key carries a version: a later editor that stores something else uses
// another key and never misreads this one. No DOM beyond the Storage interface (Node tests
// pass a Map-backed stand-in).

export const DRAFT_KEY = 'mha-world-editor:draft:v1';

/** Saves the draft; false (with nothing thrown) when storage is full or not allowed. */
export function saveDraft(storage, { doc, lastGood, origin }) {
  try {
    storage.setItem(DRAFT_KEY, JSON.stringify({ version: 1, savedAt: new Date().toISOString(), doc, lastGood, origin }));
    return true;
  } catch {
    return false;
  }
}

/** The saved draft, or null when there is none or it cannot be read (then it is left as it is). */
export function loadDraft(storage) {
  let text;
  try {
    text = storage.getItem(DRAFT_KEY);
  } catch {
    return null;
  }
  if (!text) return null;
  try {
    const draft = JSON.parse(text);
    const doc = draft?.doc;
    if (draft?.version !== 1 || !doc || typeof doc.world !== 'object' || doc.world === null || typeof doc.anchors !== 'object') return null;
    return { doc: { world: doc.world, anchors: { ...doc.anchors }, texts: { ...doc.texts } }, lastGood: draft.lastGood ?? null, origin: draft.origin ?? null, savedAt: draft.savedAt ?? null };
  } catch {
    return null;
  }
}
