// The static figures' English words (the `staticFigure` group), registered as the figures'
// helpers load. In the lesson's bundle this module is empty: web/widgets/shared/i18n.js
// registers every group. The one-widget entries' build (vite.widgets.config.js) fills it
// with registerLocale('en', { staticFigure }) and leaves the group out of the English every
// widget loads, since only a figure being redrawn (or practice's) words it: about 1.5 kB
// gzipped less for a page that is never printed or edited (issue 23).
export {};
