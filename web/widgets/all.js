// Every lesson widget, registered as a custom element.
import './layer/index.js';
import './blend/index.js';
import './head-splitting/index.js';
import './wo-mixing/index.js';
import './heads-questions/index.js';
import './training/index.js';
import './practice/index.js';
