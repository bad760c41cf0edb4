// A skipped test's name shows only with --reporter=verbose; a missing Chromium must be seen in every run.
import { HAS_CHROMIUM, NO_CHROMIUM_MESSAGE } from '../web/chromium.js';

export default function setup(): void {
  if (!HAS_CHROMIUM) console.warn(`\n⚠ ${NO_CHROMIUM_MESSAGE}\n`);
}
