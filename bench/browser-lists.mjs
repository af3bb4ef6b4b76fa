// B8: big lists in the browser. The devices view (/home/nodes) over a large fleet (1M nodes,
// bulk-inserted as node-list.mjs does) in headless Chromium: paging forward and back, jumping
// (page size, device type, search, status), with the tab's JS heap, its DOM size and the time
// from each click (or key) to the page rendered with data.
import fs from 'node:fs';
import { ROWS_SELECTOR, launchBrowser, newContext, signIn } from './browser.mjs';
import {
  SMOKE,
  benchTempDir,
  failed,
  gitCommit,
  machine,
  requireBuilt,
  round,
  sleep,
} from './lib.mjs';
import { seededSqliteServer } from './seed-nodes.mjs';

const N = Number(process.env.BENCH_NODES ?? (SMOKE ? 20_000 : 1_000_000));
/**
 * How many times the walk runs in one tab. Each cycle opens /home/nodes afresh and its status
 * step loads the page again, so the heap is one document's over up to ~20 steps (the query cache of the
 * SPA lives that long).
 */
const CYCLES = Number(process.env.BENCH_CYCLES ?? (SMOKE ? 1 : 3));
/** Next clicks in the first stretch of each walk. */
const NEXTS = Number(process.env.BENCH_NEXTS ?? (SMOKE ? 5 : 10));
/** An operator's pause between actions (the list fetches the next page ahead meanwhile). */
const PAUSE_MS = Number(process.env.BENCH_PAUSE_MS ?? 250);
/**
 * Diagnosis: `BENCH_PROFILE_STEP=<step name>` records a CPU profile of the page during each such
 * step (sampled every 100 µs) and prints the main thread's work (CDP Performance metrics) and the
 * functions with the most self time; with `BENCH_PROFILE_DIR` the `.cpuprofile` files and a
 * Chromium trace of the step (`.trace.json`) are kept there (open them in DevTools).
 */
const PROFILE_STEP = process.env.BENCH_PROFILE_STEP;
const PROFILE_DIR = process.env.BENCH_PROFILE_DIR;
const STEP_TIMEOUT_MS = 20_000;
const MB = 1_000_000;
const TARGETS = { js_heap_mb: 100, dom_elements: 1500, click_to_rendered_ms: 150 };

/**
 * Installed in every document: a big enough resource timing buffer for a whole walk, and the
 * time (from navigation start) at which the list first showed rows, drawn.
 */
function pageSetup() {
  performance.setResourceTimingBufferSize(10_000);
  window.__b8FirstRows = null;
  const ready = () => {
    const table = document.querySelector('[data-testid="node-table"]');
    return (
      table !== null &&
      table.querySelector('tbody tr[data-node-id]') !== null &&
      table.getAttribute('aria-busy') !== 'true'
    );
  };
  const observer = new MutationObserver(() => {
    if (!ready()) return;
    observer.disconnect();
    requestAnimationFrame(() =>
      setTimeout(() => {
        window.__b8FirstRows = performance.now();
      }, 0),
    );
  });
  observer.observe(document, { subtree: true, childList: true, attributes: true });
}

/**
 * In the page, before an action: remembers the list's current rows and waits for the first
 * trusted pointerdown or keydown (the action). Then a MutationObserver waits until the table is
 * no longer busy and shows other rows (or the empty state); `painted` is taken in a task after
 * the next animation frame, i.e. once that frame has been drawn.
 */
function arm() {
  const signature = () => {
    const table = document.querySelector('[data-testid="node-table"]');
    if (!table) return { ready: false, sig: null };
    const rows = table.querySelectorAll('tbody tr[data-node-id]');
    const empty = table.querySelector('[data-testid="node-table-empty"]');
    const sig = empty
      ? 'empty'
      : `${rows.length}|${rows[0]?.getAttribute('data-node-id')}|${rows[rows.length - 1]?.getAttribute('data-node-id')}`;
    return {
      ready: table.getAttribute('aria-busy') !== 'true' && (rows.length > 0 || empty !== null),
      sig,
    };
  };
  const state = { before: signature().sig, inputAt: null, dataAt: null, painted: null, sig: null };
  window.__b8 = state;
  const onInput = (event) => {
    if (state.inputAt === null && event.isTrusted) state.inputAt = event.timeStamp;
  };
  addEventListener('pointerdown', onInput, { capture: true });
  addEventListener('keydown', onInput, { capture: true });
  const observer = new MutationObserver(() => {
    if (state.dataAt !== null || state.inputAt === null) return;
    const now = signature();
    if (!now.ready || now.sig === state.before) return;
    state.dataAt = performance.now();
    state.sig = now.sig;
    observer.disconnect();
    removeEventListener('pointerdown', onInput, { capture: true });
    removeEventListener('keydown', onInput, { capture: true });
    requestAnimationFrame(() =>
      setTimeout(() => {
        state.painted = performance.now();
      }, 0),
    );
  });
  observer.observe(document.body, {
    subtree: true,
    childList: true,
    attributes: true,
    characterData: true,
  });
}

/** Whether the list waited for the API: a list request started after the input, done before the data. */
function readStep() {
  const state = window.__b8;
  const api = performance
    .getEntriesByType('resource')
    .filter(
      (e) =>
        e.name.includes('/v1/admin/nodes') &&
        e.startTime >= state.inputAt &&
        e.responseEnd <= state.dataAt,
    )
    .at(-1);
  return {
    inputToDataMs: state.dataAt - state.inputAt,
    inputToPaintMs: state.painted - state.inputAt,
    waitedForApi: api !== undefined,
    // When it waited: the request's start after the input, and its duration (network + server).
    apiStartMs: api ? api.startTime - state.inputAt : null,
    apiMs: api ? api.responseEnd - api.startTime : null,
    rows: state.sig,
  };
}

const TASK_METRICS = [
  'TaskDuration',
  'ScriptDuration',
  'RecalcStyleDuration',
  'LayoutDuration',
  'RecalcStyleCount',
  'LayoutCount',
];
let metricsBefore;

async function taskMetrics(cdp) {
  const { metrics } = await cdp.send('Performance.getMetrics');
  return Object.fromEntries(
    TASK_METRICS.map((name) => [name, metrics.find((m) => m.name === name)?.value ?? 0]),
  );
}

async function startProfile(cdp) {
  metricsBefore = await taskMetrics(cdp);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
  await cdp.send('Profiler.start');
}

/** Stops the profile and prints the 15 functions with the most self time (ms). */
async function stopProfile(cdp, label) {
  const { profile } = await cdp.send('Profiler.stop');
  const metricsAfter = await taskMetrics(cdp);
  // The main thread's work during the step (durations in ms; counts as they are).
  const work = TASK_METRICS.map((name) => {
    const delta = metricsAfter[name] - metricsBefore[name];
    return `${name} ${name.endsWith('Count') ? delta : round(delta * 1000, 1)}`;
  });
  if (PROFILE_DIR) {
    fs.mkdirSync(PROFILE_DIR, { recursive: true });
    const file = `${PROFILE_DIR}/${label.replace(/[^\w-]+/g, '_')}.cpuprofile`;
    fs.writeFileSync(file, JSON.stringify(profile));
  }
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map();
  for (let i = 0; i < profile.samples.length; i += 1) {
    const { functionName, url, lineNumber } = nodes.get(profile.samples[i]).callFrame;
    const key = `${functionName || '(anonymous)'} ${url.split('/').pop()}:${lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + profile.timeDeltas[i] / 1000);
  }
  const top = [...self].sort((a, b) => b[1] - a[1]).slice(0, 15);
  console.error(`browser-lists profile ${label}: ${work.join(', ')}`);
  for (const [key, ms] of top) console.error(`  ${round(ms, 1)} ms  ${key}`);
}

async function sample(page, cdp) {
  const { metrics } = await cdp.send('Performance.getMetrics');
  const metric = (name) => metrics.find((m) => m.name === name)?.value ?? null;
  const dom = await page.evaluate(() => document.getElementsByTagName('*').length);
  const status = await page
    .getByTestId('node-page-status')
    .innerText()
    .catch(() => null);
  return {
    js_heap_used_mb: round(metric('JSHeapUsedSize') / MB, 1),
    js_heap_total_mb: round(metric('JSHeapTotalSize') / MB, 1),
    dom_elements: dom,
    cdp_nodes: metric('Nodes'),
    event_listeners: metric('JSEventListeners'),
    page_status: status,
  };
}

async function walk(page, cdp, baseUrl, cycle, steps) {
  const button = (name) => page.getByRole('button', { name, exact: true });
  const label = (text) => page.getByLabel(text, { exact: true });

  /** One measured action: arm, act, wait for the rows to change and be drawn, sample. */
  const step = async (name, action) => {
    const profiling = name === PROFILE_STEP;
    await page.evaluate(arm);
    if (profiling && PROFILE_DIR) {
      await page
        .context()
        .browser()
        .startTracing(page, {
          path: `${PROFILE_DIR}/${cycle}-${steps.length}-${name.replace(/\W+/g, '_')}.trace.json`,
          categories: [
            'devtools.timeline',
            'disabled-by-default-devtools.timeline',
            'blink.user_timing',
            'v8.execute',
            'toplevel',
          ],
        });
    }
    if (profiling) await startProfile(cdp);
    await action();
    await page.waitForFunction(() => window.__b8.painted !== null, undefined, {
      timeout: STEP_TIMEOUT_MS,
    });
    if (profiling) await stopProfile(cdp, `${cycle}-${steps.length}-${name}`);
    if (profiling && PROFILE_DIR) await page.context().browser().stopTracing();
    const timing = await page.evaluate(readStep);
    const row = {
      cycle,
      step: name,
      kind: 'click',
      ms: round(timing.inputToPaintMs, 1),
      data_ms: round(timing.inputToDataMs, 1),
      waited_for_api: timing.waitedForApi,
      api_start_ms: round(timing.apiStartMs, 1),
      api_ms: round(timing.apiMs, 1),
      rows: timing.rows,
      ...(await sample(page, cdp)),
    };
    steps.push(row);
    console.error(
      `browser-lists ${cycle}/${name}: ${row.ms} ms` +
        `${row.waited_for_api ? ` (API +${row.api_start_ms} ms, ${row.api_ms} ms)` : ''}, ` +
        `heap ${row.js_heap_used_mb} MB, DOM ${row.dom_elements}, ${row.page_status}`,
    );
    await sleep(PAUSE_MS);
  };
  /** A navigation that loads the list: navigation start → first rows drawn. */
  const load = async (name, url) => {
    await page.goto(url);
    await page.waitForFunction(() => window.__b8FirstRows !== null, undefined, {
      timeout: STEP_TIMEOUT_MS,
    });
    const ms = await page.evaluate(() => window.__b8FirstRows);
    const row = {
      cycle,
      step: name,
      kind: 'page load',
      ms: round(ms, 1),
      ...(await sample(page, cdp)),
    };
    steps.push(row);
    console.error(`browser-lists ${cycle}/${name}: ${row.ms} ms from navigation start`);
    await sleep(PAUSE_MS);
  };

  // Every cycle starts from the same place: the list opened afresh (page size 10, no filter).
  await load('open /home/nodes', `${baseUrl}/home/nodes`);
  for (let i = 0; i < NEXTS; i += 1) await step('next', () => button('Next').click());
  await step('prev', () => button('Prev').click());
  await step('prev', () => button('Prev').click());
  // Page size 10 → 25 from the keyboard (End picks the last size), back to page 1.
  await step('page size 25', async () => {
    await label('Rows per page').focus();
    await page.keyboard.press('End');
  });
  for (let i = 0; i < 3; i += 1) await step('next', () => button('Next').click());
  // Device type: All Devices → Air Conditioner.
  await step('type filter', async () => {
    await label('Device type').focus();
    await page.keyboard.press('ArrowDown');
  });
  for (let i = 0; i < 2; i += 1) await step('next', () => button('Next').click());
  // A device-id search: the first two characters of a node id on this page, Enter applies it.
  const someId = await page.locator(ROWS_SELECTOR).last().getAttribute('data-node-id');
  await step('search', async () => {
    await label('Search by device id').fill(someId.slice(0, 2));
    await page.keyboard.press('Enter');
  });
  if (await button('Next').isEnabled()) await step('next', () => button('Next').click());
  await step('clear search', () =>
    page.getByRole('button', { name: 'Clear search by device id' }).click(),
  );
  // Status: the dashboard's links open the list with ?status=… (a page load), then the badge
  // clears it. Page size and type start over with the load.
  await load('open ?status=true', `${baseUrl}/home/nodes?status=true`);
  for (let i = 0; i < 2; i += 1) await step('next', () => button('Next').click());
  await step('type filter', async () => {
    await label('Device type').focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
  });
  await step('clear status', () => button('Show every status').click());
  await step('next', () => button('Next').click());
}

async function main() {
  requireBuilt();
  const started = Date.now();
  const dataDir = benchTempDir();
  console.error(`browser-lists: loading ${N} nodes`);
  // BENCH_WEB_DIST_DIR: another build of the dashboard (e.g. an unminified one for profiles).
  const webDist = process.env.BENCH_WEB_DIST_DIR;
  const seeded = await seededSqliteServer(dataDir, N, webDist ? { WEB_DIST_DIR: webDist } : {});
  const { server } = seeded;
  console.error(`browser-lists: ${N} nodes in ${round(seeded.insertS, 1)} s; browser walk`);
  let browser;
  try {
    browser = await launchBrowser();
    const context = await newContext(browser.browser, server.baseUrl);
    await context.addInitScript(pageSetup);
    const page = await context.newPage();
    page.setDefaultTimeout(STEP_TIMEOUT_MS);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    const steps = [];

    const signInStarted = Date.now();
    await page.goto('/home/nodes');
    await signIn(page);
    await page.waitForURL(/\/home\/nodes/);
    await page.locator(ROWS_SELECTOR).first().waitFor();
    const signInToListMs = Date.now() - signInStarted;
    steps.push({
      cycle: 0,
      step: 'signed in, list shown',
      kind: 'setup',
      ...(await sample(page, cdp)),
    });
    for (let cycle = 1; cycle <= CYCLES; cycle += 1) {
      await walk(page, cdp, server.baseUrl, cycle, steps);
    }
    await cdp.send('HeapProfiler.enable');
    await cdp.send('HeapProfiler.collectGarbage');
    const afterGc = await sample(page, cdp);
    await context.close();

    const clicks = steps.filter((s) => s.kind === 'click');
    const loads = steps.filter((s) => s.kind === 'page load');
    const clickMs = clicks.map((s) => s.ms).sort((a, b) => a - b);
    const maxHeap = Math.max(...steps.map((s) => s.js_heap_used_mb));
    const maxDom = Math.max(...steps.map((s) => s.dom_elements));
    const worstClick = clicks.reduce((w, s) => (s.ms > (w?.ms ?? -1) ? s : w), null);
    const byStep = {};
    for (const s of clicks) {
      const key = `${s.step}${s.waited_for_api ? ' (API)' : ' (cached)'}`;
      (byStep[key] ??= []).push(s.ms);
    }
    const figures = {
      js_heap_used_mb: {
        max: maxHeap,
        after_walk_and_gc: afterGc.js_heap_used_mb,
        first: steps[0].js_heap_used_mb,
        target: TARGETS.js_heap_mb,
        pass: maxHeap <= TARGETS.js_heap_mb,
      },
      dom_elements: {
        max: maxDom,
        target: TARGETS.dom_elements,
        pass: maxDom <= TARGETS.dom_elements,
      },
      click_to_rendered_ms: {
        clicks: clicks.length,
        median: clickMs[Math.floor(clickMs.length / 2)],
        p90: clickMs[Math.min(clickMs.length - 1, Math.ceil(clickMs.length * 0.9) - 1)],
        max: worstClick?.ms ?? null,
        worst_step: worstClick ? `${worstClick.step} (cycle ${worstClick.cycle})` : null,
        over_target: clicks.filter((s) => s.ms > TARGETS.click_to_rendered_ms).length,
        waited_for_api: clicks.filter((s) => s.waited_for_api).length,
        by_step: Object.fromEntries(
          Object.entries(byStep).map(([k, v]) => [
            k,
            {
              n: v.length,
              median: [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)],
              max: Math.max(...v),
            },
          ]),
        ),
        target: TARGETS.click_to_rendered_ms,
        pass: clicks.every((s) => s.ms <= TARGETS.click_to_rendered_ms),
      },
      page_loads_to_rows_ms: loads.map((s) => s.ms),
      sign_in_to_list_ms: signInToListMs,
    };
    console.log(
      JSON.stringify({
        benchmark: 'B8 browser-lists',
        mode: SMOKE ? 'smoke' : 'full',
        commit: gitCommit(),
        machine: {
          ...machine(),
          browser: `headless Chromium (${browser.browser.version()}), playwright-core, no throttling, on the same 2 cores as the server`,
        },
        workload: {
          nodes: N,
          fixture:
            'bench/seed-nodes.mjs (as node-list.mjs: 3 types, 6 cities, 30 % online / 55 % offline / 15 % not activated), SQLite',
          insert_s: round(seeded.insertS, 1),
          counters: seeded.counters,
          cycles: CYCLES,
          walk: `open /home/nodes (page load), Next ×${NEXTS}, Prev ×2, page size 25 (keyboard), Next ×3, type filter (keyboard), Next ×2, search (2 characters + Enter), Next (if there is a next page), clear search, open ?status=true (page load), Next ×2, type filter, clear status, Next; ${PAUSE_MS} ms pause after each`,
          click_to_rendered:
            'in the page: the trusted pointerdown/keydown’s timeStamp → the table not busy with other rows (MutationObserver) → a task after the next animation frame (drawn)',
          js_heap:
            'CDP Performance.getMetrics JSHeapUsedSize after each step (no forced GC), MB = 10^6 bytes',
          dom: "document.getElementsByTagName('*').length after each step",
        },
        targets: TARGETS,
        figures,
        pass: {
          js_heap: figures.js_heap_used_mb.pass,
          dom: figures.dom_elements.pass,
          click_to_rendered: figures.click_to_rendered_ms.pass,
        },
        after_gc: afterGc,
        steps,
        elapsed_s: round((Date.now() - started) / 1000, 1),
      }),
    );
  } finally {
    await browser?.close();
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch(failed);
