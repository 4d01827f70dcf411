// A widget's state contract: the one shape every web/widgets/<name>/<name>-model.js exports
// as STATE_CONTRACT, so code that handles any widget's state (the learner's copy, practice
// tasks, static figures) treats them all alike:
//   keys                   the state's fields, in the order the widget writes them
//   config()               the widget's starting configuration (from the lesson's data;
//                          {} for a widget with none): what start and sanitize check against
//   start(config)          the starting state
//   sanitize(raw, config)  a clean copy of an untrusted state (URL, setState, a file), or
//                          throws a StateError (state-error.js) saying what is wrong
// A widget's own attributes (heads=, token=) adjust its start in the widget, not here.

/** Checks the shape once, at load, and freezes the contract. */
export function stateContract({ keys, config = () => ({}), start, sanitize }) {
  if (!Array.isArray(keys) || !keys.every((key) => typeof key === 'string')) throw new TypeError('stateContract: keys must be field names');
  for (const [name, fn] of Object.entries({ config, start, sanitize })) {
    if (typeof fn !== 'function') throw new TypeError(`stateContract: ${name} must be a function`);
  }
  return Object.freeze({ keys: Object.freeze([...keys]), config, start, sanitize });
}
