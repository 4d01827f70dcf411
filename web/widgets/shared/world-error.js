// A world that cannot be used (world-check.js finds its problems): `problems` lists each
// field that is wrong, { path, message }, and the message shows the first three. Its own
// small module, so that code which only reports such errors (world-source.js) does not
// load the checker: a page whose widgets show the lesson's world never needs it.
export class WorldError extends Error {
  constructor(problems) {
    const shown = problems.slice(0, 3).map((p) => `${p.path}: ${p.message}`).join('; ');
    const more = problems.length > 3 ? ` (and ${problems.length - 3} more)` : '';
    super(`${shown}${more}.`);
    this.name = 'WorldError';
    this.problems = problems;
  }
}
