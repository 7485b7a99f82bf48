import t from 'tap';
import type { Page } from 'playwright-core';
import { launchBrowser, openPage } from '../helpers/browser.js';
import { requireTools } from '../helpers/system-tools.js';
import { DURATION_THRESHOLDS, ROWS, trendMonitor } from '../helpers/trend-fixtures.js';
import { waitFor } from '../helpers/wait.js';

// The trend chart of a monitor's page in a real Chromium, checked against numbers worked out by hand
// (helpers/trend-fixtures.ts): a point per run, each rule's threshold at the height of its value on the axis.

/** The y of the axis' grid line at `value`, as drawn. */
async function tickY(page: Page, value: number): Promise<number> {
  const d = await page.locator(`.trend-plot .trend-tick[data-value="${value}"] path`).getAttribute('d');
  return Number(/^M[\d.]+ ([\d.]+)H/.exec(d!)![1]);
}

/** An attribute of each point, oldest first. */
async function pointAttr(page: Page, name: 'cx' | 'cy'): Promise<number[]> {
  const points = "document.querySelectorAll('.trend-plot circle.trend-point')";
  const script = `[...${points}].map((c) => c.getAttribute('${name}'))`;
  return ((await page.evaluate(script)) as string[]).map(Number);
}

/** The numbers of a path's commands: [['M', x, y], ['H', x], ['V', y] …]. */
function commands(d: string): Array<[string, ...number[]]> {
  return [...d.matchAll(/([MLHV])([^MLHV]+)/g)].map(([, c, args]) => [c!, ...args!.trim().split(/\s+/).map(Number)]);
}

/** When set (a directory), the run also saves a picture of the chart there, to look at. */
const SCREENSHOTS = process.env.PINGMON_SCREENSHOTS;

if (requireTools(t, 'chromium'))
  t.test("a monitor's trend chart", async (t) => {
    const { api, account, monitorId } = await trendMonitor(t);
    const origin = api.url.replace(/\/api\/v1$/, '');
    const browser = await launchBrowser(t);
    const page = await openPage(t, browser);
    await page.goto(`${origin}/monitors/${monitorId}`);
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password').fill(account.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const plot = page.locator('svg.trend-plot');
    await plot.waitFor();

    t.test('a meta key: a point per run, the fixed threshold flat at its value, the matched runs marked', async (t) => {
      t.equal(await page.getByLabel('Trend of').inputValue(), 'rows', "the first rule's metric first");
      t.equal(await plot.locator('circle.trend-point').count(), ROWS.length, 'one point per run');
      t.equal(await plot.locator('circle.trend-matched').count(), 2, 'rows 3 and 4 are under 5');
      const ys = await pointAttr(page, 'cy');
      const [y0, y5] = [await tickY(page, 0), await tickY(page, 5)];
      const perRow = (y0 - y5) / 5;
      ys.forEach((y, i) => t.ok(Math.abs(y - (y0 - ROWS[i]! * perRow)) < 0.01, `run ${i} at rows ${ROWS[i]}`));
      const xs = await pointAttr(page, 'cx');
      t.ok(
        xs.every((x, i) => i === 0 || x > xs[i - 1]!),
        'oldest on the left',
      );
      const threshold = commands((await plot.locator('.trend-threshold').getAttribute('d'))!);
      t.equal(threshold.length, 2, 'one straight line');
      t.ok(Math.abs(threshold[0]![2]! - y5) < 0.01, 'at 5 on the axis');
      const label = (await plot.getAttribute('aria-label'))!;
      t.match(
        label,
        new RegExp(
          '^rows of the last 6 successful runs, .*: 6 reported it, 3 to 12, latest 4; ' +
            'rule rows < 5: threshold 5, matched 2$',
        ),
      );
    });

    t.test(
      'the duration: a median rule steps with the median, from the run that first had enough before',
      async (t) => {
        await page.getByLabel('Trend of').selectOption('durationMs');
        await waitFor(async () => /^durationMs/.test((await plot.getAttribute('aria-label')) ?? ''), {
          what: 'the duration drawn',
        });
        t.equal(await plot.locator('circle.trend-point').count(), 6);
        t.equal(await plot.locator('circle.trend-matched').count(), 1, 'the 8 s run, over 2 × 2 s');
        if (SCREENSHOTS) await plot.screenshot({ path: `${SCREENSHOTS}/trend-duration.png` });
        const [y0, y2s] = [await tickY(page, 0), await tickY(page, 2000)];
        const yOf = (ms: number) => y0 - ((y0 - y2s) / 2000) * ms;
        const xs = await pointAttr(page, 'cx');
        const d = commands((await plot.locator('.trend-threshold').getAttribute('d'))!);
        // From the fourth run: M at 4 s, on to the fifth, up to 6 s, on to the sixth, (6 s again), on to the edge.
        t.same(
          d.map(([c]) => c),
          ['M', 'H', 'V', 'H', 'V', 'H'],
        );
        t.ok(Math.abs(d[0]![1]! - xs[3]!) < 0.01, 'it starts at the fourth run');
        t.ok(Math.abs(d[0]![2]! - yOf(DURATION_THRESHOLDS[3]!)) < 0.01, 'at 4 s');
        t.ok(Math.abs(d[1]![1]! - xs[4]!) < 0.01, 'until the fifth run');
        t.ok(Math.abs(d[2]![1]! - yOf(DURATION_THRESHOLDS[4]!)) < 0.01, 'then 6 s');
        t.ok(Math.abs(d[4]![1]! - yOf(DURATION_THRESHOLDS[5]!)) < 0.01, 'and 6 s at the sixth');
        t.match(
          (await plot.getAttribute('aria-label'))!,
          /: 6 reported it, 1s to 8s, latest 4s; rule durationMs > 2 × median\(3\): threshold 4s to 6s, matched 1$/,
        );
      },
    );
  });
