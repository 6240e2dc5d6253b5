// The exported tests of one `curio forms` run, in Debian's Chromium, headless.
// CURIO_TESTS names the directory of the spec files (under this folder, so that they
// resolve @playwright/test from its node_modules).
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: process.env.CURIO_TESTS ?? 'tests',
  timeout: 20_000,
  workers: 1,
  retries: 0,
  reporter: [['list']],
  use: {
    headless: true,
    launchOptions: {
      executablePath: process.env.CURIO_CHROME ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
});
