// The cross-engine scenarios (scenarios.mjs) in WebKit: see webkit.mjs for how it is driven.
import { scenarios } from './scenarios.mjs';
import { webkit } from './webkit.mjs';

scenarios(webkit());
