// The cross-engine scenarios (scenarios.mjs) in Chromium: see chromium.mjs for how it is driven.
import { scenarios } from './scenarios.mjs';
import { chromium } from './chromium.mjs';

scenarios(chromium());
