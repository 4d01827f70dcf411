// The node test files that run in a process of their own beside tests/node/together.mjs (the
// rest, in one process): each needs what only a fresh process gives (no formatter made yet),
// or replaces globals (timers, fetch) while its tests wait on them.
export const ALONE = ['intl-on-demand.test.mjs', 'practice-reporting.test.mjs'];
