// Which Chromium the browser tests drive, and what they say when it is missing (also printed by browser-setup.ts).
import fs from 'node:fs';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const HAS_CHROMIUM = fs.existsSync(CHROMIUM);
export const NO_CHROMIUM_MESSAGE = `browser tests skipped: ${CHROMIUM} is absent (install it with: apt-get install -y chromium)`;
