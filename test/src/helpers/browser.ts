import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { CHROMIUM } from './system-tools.js';

// A browser test starts with requireTools(t, 'chromium') (./system-tools.ts).

/** Where a failing browser test leaves its screenshot (kept out of git). */
export const ARTIFACTS = fileURLToPath(new URL('../../artifacts/', import.meta.url));

interface TestLike {
  teardown(fn: () => unknown): void;
  passing(): boolean;
  readonly fullname: string;
}

export async function launchBrowser(t: TestLike): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  t.teardown(() => browser.close());
  return browser;
}

/**
 * A page in a context of its own (its own cookies). When the test has failed by the time it ends, a screenshot of
 * the page goes to test/artifacts/, named after the test.
 */
export async function openPage(t: TestLike, browser: Browser, options: BrowserContextOptions = {}): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1100, height: 760 }, ...options });
  t.teardown(() => context.close());
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  // Registered after the context's close, so run before it (teardowns run last-registered first).
  t.teardown(async () => {
    if (t.passing()) return;
    mkdirSync(ARTIFACTS, { recursive: true });
    const name = t.fullname.replace(/[^A-Za-z0-9]+/g, '-').slice(-120);
    await page.screenshot({ path: `${ARTIFACTS}${name}.png`, fullPage: true }).catch(() => undefined);
  });
  return page;
}
