// The cross-engine scenarios (scenarios.mjs) in Firefox: see firefox.mjs for how it is driven.
import { scenarios } from './scenarios.mjs';
import { firefox } from './firefox.mjs';

scenarios(firefox());
