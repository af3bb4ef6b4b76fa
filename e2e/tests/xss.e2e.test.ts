import {
  INVITE_MESSAGE_TEMPLATE_TYPE,
  nodeTopic,
  type AdminNodesList,
  type NodeDiagnosticsInfo,
  type RegisterNodesResponse,
} from '@fleetdeck/contract';
import type { MqttClient } from 'mqtt';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { connectNode } from '../../packages/server/test/helpers/mqtt-clients.js';
import { launchBrowser, newContext, screenshot } from '../helpers/browser.js';
import {
  E2E_ADMIN_PASSWORD,
  apiToken,
  startServer,
  type RunningServer,
} from '../helpers/fleetdeck-server.js';
import { signIn } from '../helpers/session.js';

/**
 * Injection and XSS (quality standard S9): script payloads are stored through the real API and
 * the real MQTT path in every text field the dashboard renders, then every screen that shows them
 * is opened in Chromium. On each screen the payload must be visible as literal text, no payload
 * may have become an element or an event handler, `window.__xss` must stay unset and no dialog
 * may open. The screens are opened with the dashboard's Content-Security-Policy bypassed, so the
 * rendering itself is tested; the first tests show that the checks catch a payload parsed as HTML
 * and that the policy, in force, refuses an inline handler too.
 */

/** Sets `window.__xss` once parsed as HTML; the id tells the fields apart on screen. */
const imgPayload = (id: string) =>
  `<img src=x id=${id} onerror="window.__xss=(window.__xss||0)+1">`;
const scriptPayload = (id: string) => `<script id=${id}>window.__xss=(window.__xss||0)+1</script>`;
/** Breaks out of an attribute, then runs on load and opens a dialog. */
const svgPayload = (id: string) => `"><svg id=${id} onload="window.__xss=1;alert(1)">`;
/** A value that would run if it ever became an href. */
const JS_URL = 'javascript:window.__xss=1';

/** One hostile value per stored field (each within the field's documented limit). */
const P = {
  // Node tags, through the admin tags API (tags at most 128 characters, searches at most 64).
  location: imgPayload('loc'),
  serial: svgPayload('sn'),
  // Reported by the device itself in its config over MQTT (model and version at most 64).
  model: imgPayload('mdl'),
  fwVersion: scriptPayload('fw'),
  nodeName: scriptPayload('name'),
  // Device group: name at most 64, description at most 500.
  groupName: svgPayload('grp'),
  groupDescription: `${scriptPayload('gd1')} and ${imgPayload('gd2')}`,
  // Firmware image: type, version and model at most 64; the file name.
  imageType: scriptPayload('ity'),
  imageVersion: svgPayload('ifw'),
  imageModel: imgPayload('imd'),
  imageFile: `${imgPayload('ifile')}.bin`,
  // User profile: at most 64 each.
  firstName: imgPayload('fn'),
  lastName: scriptPayload('ln'),
  city: svgPayload('city'),
  // Email template: subject at most 200, body at most 20 000.
  subject: `${scriptPayload('subj')} {{first_name}}`,
  body: `Hello {{first_name}} ${imgPayload('body')}\n${svgPayload('body2')} {{link}}`,
  // Diagnostics, reported by the device over MQTT.
  project: imgPayload('proj'),
  appVersion: svgPayload('app'),
  logTag: svgPayload('tag'),
  logMessage: imgPayload('msg'),
  crashCause: scriptPayload('cause'),
  backtraceMethod: imgPayload('method'),
  backtraceFile: svgPayload('file'),
  metricLabel: imgPayload('metric'),
  variableLabel: svgPayload('var'),
  variableValue: imgPayload('val'),
};

const DEVICE_ID = 'fd-xss-001';
const JS_NODE_ID = 'fd-xss-002';
const USER_NAME = 'xss.probe@fleetdeck.test';
const IMAGE_NAME = 'XSS probe 1.0';
const METRIC_ID = 'xss.probe';

let server: RunningServer;
let token: string;
let device: MqttClient | undefined;
let browser: Browser;
let closeBrowser: () => Promise<void>;
let context: BrowserContext | undefined;
let page: Page;
/** The message of every dialog the page opened (each is dismissed). */
let dialogs: string[];
let groupId: string;
let imageId: string;

/** One API call; the status and the parsed body, whatever the status. */
async function call(
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: token },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as unknown) : undefined };
}

async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const result = await call(method, path, body);
  if (result.status >= 300)
    throw new Error(`${method} ${path}: ${result.status} ${JSON.stringify(result.body)}`);
  return result.body as T;
}

/** Polls outside a test (expect.poll works only inside one) until `condition` holds. */
async function until(what: string, condition: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** What the device's row says now (model and version come from its config). */
async function storedNode(nodeId: string) {
  const list = await api<AdminNodesList>('GET', `/v1/admin/nodes?node_id=${nodeId}`);
  return list.node_info[0];
}

beforeAll(async () => {
  server = await startServer({ DEPLOYMENT_MODE: 'customer' });
  ({ browser, close: closeBrowser } = await launchBrowser());
  token = await apiToken(server.url);

  const registered = await api<RegisterNodesResponse>('POST', '/v1/admin/node_ids', {
    nodes: [
      {
        node_id: DEVICE_ID,
        type: 'Air Conditioner',
        model: 'AC-1',
        fw_version: '1.0.0',
        tags: ['location:Pune'],
      },
      {
        node_id: JS_NODE_ID,
        type: 'Air Conditioner',
        model: 'AC-2',
        fw_version: '1.0.0',
        tags: ['location:Pune'],
      },
    ],
  });
  // The tags, replaced through the admin tags API.
  await api('PUT', `/v1/admin/nodes?node_id=${DEVICE_ID}`, {
    tags: [`location:${P.location}`, `esp.serial_num:${P.serial}`],
  });
  await api('PUT', `/v1/admin/nodes?node_id=${JS_NODE_ID}`, {
    tags: [`location:${JS_URL}`, 'esp.serial_num:SN-JS'],
  });

  // The device reports its own name, model and version, and its diagnostics, over MQTT.
  const mqttPort = /embedded broker on port (\d+)/.exec(server.output())?.[1];
  if (!mqttPort) throw new Error(`no MQTT port in the server output:\n${server.output()}`);
  const password = registered.nodes.find((node) => node.node_id === DEVICE_ID)?.mqtt_password;
  device = await connectNode(`mqtt://127.0.0.1:${mqttPort}`, DEVICE_ID, password ?? '');
  await device.publishAsync(
    nodeTopic(DEVICE_ID, 'config'),
    JSON.stringify({
      node_id: DEVICE_ID,
      config_version: '2024-01-01',
      info: {
        name: P.nodeName,
        model: P.model,
        fw_version: P.fwVersion,
        // Not one of the node types: the server keeps the registered type.
        type: imgPayload('type'),
      },
      devices: [],
    }),
    { qos: 1 },
  );
  const now = Math.floor(Date.now() / 1000);
  await device.publishAsync(
    nodeTopic(DEVICE_ID, 'diagnostics/from-node'),
    JSON.stringify({
      info: { project: P.project, app_version: P.appVersion },
      logs: [
        { ts: now - 120, type: 'warning', tag: P.logTag, message: P.logMessage },
        {
          ts: now - 60,
          type: 'crash',
          tag: 'panic',
          message: '',
          data: {
            pc: '0x400d2f1c',
            cause: P.crashCause,
            backtrace: [
              { address: '0x400d2f1c', method: P.backtraceMethod, file: P.backtraceFile, line: 7 },
            ],
          },
        },
      ],
      metrics: [
        {
          id: METRIC_ID,
          label: P.metricLabel,
          points: [
            { ts: now - 90, val: 1 },
            { ts: now - 30, val: 2 },
          ],
        },
      ],
      variables: [
        {
          label: 'Probe',
          type: 'folder',
          children: [
            {
              label: P.variableLabel,
              type: 'param',
              id: 'xss.var',
              values: { data: [{ val: P.variableValue, ts: now - 10 }] },
            },
          ],
        },
      ],
    }),
    { qos: 1 },
  );
  await until(
    'the device config is stored',
    async () => (await storedNode(DEVICE_ID))?.model === P.model,
  );
  await until('the device diagnostics are stored', async () => {
    const info = (await call('GET', `/insights/v1/node/info?node_id=${DEVICE_ID}`)).body as
      NodeDiagnosticsInfo | undefined;
    return info?.project === P.project && info.app_version === P.appVersion;
  });

  // An automatic group on the device's hostile model, so its details list the device too.
  ({ group_id: groupId } = await api<{ group_id: string }>('POST', '/v1/admin/node_group', {
    group_name: P.groupName,
    description: P.groupDescription,
    node_model: P.model,
  }));
  ({ ota_image_id: imageId } = await api<{ ota_image_id: string }>('POST', '/v1/admin/otaimage', {
    image_name: IMAGE_NAME,
    type: P.imageType,
    fw_version: P.imageVersion,
    model: P.imageModel,
    file_name: P.imageFile,
    base64_fwimage: Buffer.alloc(4096, 7).toString('base64'),
  }));
  await api('POST', '/v1/admin/user2', {
    user_name: USER_NAME,
    password: E2E_ADMIN_PASSWORD,
    roles: ['service_engineer_role'],
    first_name: P.firstName,
    last_name: P.lastName,
    city: P.city,
    phone_number: '9876501234',
    geo_region: 'Pune',
    registration_date: '2025-01-02',
  });
  await api('POST', '/v1/admin/message_template', {
    template_type: INVITE_MESSAGE_TEMPLATE_TYPE,
    message_subject: P.subject,
    message_text: P.body,
    from_user_name: 'Fleet Ops',
  });
}, 60_000);

afterAll(async () => {
  await device?.endAsync(true);
  await closeBrowser?.();
  await server?.stop();
});

/** A signed-in page whose dialogs are recorded (and dismissed). */
async function openPage(options: { bypassCsp: boolean }): Promise<void> {
  // The dashboard's Content-Security-Policy already refuses inline handlers and scripts. The
  // screens are checked with it bypassed, so that they prove the rendering itself keeps every
  // stored value text, and would catch a payload that only the policy stopped.
  context = options.bypassCsp
    ? await browser.newContext({
        baseURL: server.url,
        viewport: { width: 1280, height: 800 },
        bypassCSP: true,
      })
    : await newContext(browser, server.url);
  page = await context.newPage();
  dialogs = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await signIn(page);
}

afterEach(async () => {
  await context?.close();
  context = undefined;
});

/** The page's rendered text and the values of its inputs and text areas. */
const shownText = (on: Page) =>
  on.evaluate(() =>
    [
      document.body.innerText,
      ...Array.from(
        document.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>('input, textarea'),
        (field) => field.value,
      ),
    ].join('\n'),
  );

/** Waits until every value is on the page as literal text. */
async function expectShown(values: readonly string[]): Promise<void> {
  await expect
    .poll(
      async () => {
        const text = await shownText(page);
        return values.filter((value) => !text.includes(value));
      },
      { timeout: 10_000 },
    )
    .toEqual([]);
}

/**
 * What a payload would have left behind had it been parsed as HTML: the flag, its elements (by
 * the ids the payloads carry), any `on…` attribute, a `javascript:` link, a script with its code.
 */
function inertState(on: Page) {
  return on.evaluate(async () => {
    // Two frames: an onload or onerror of a parsed payload has had its turn.
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    const all = Array.from(document.querySelectorAll('*'));
    return {
      flag: (window as { __xss?: unknown }).__xss,
      payloadElements: document.querySelectorAll('img[src="x"], svg[onload], [onerror], [onload]')
        .length,
      handlerAttributes: all
        .filter((element) =>
          Array.from(element.attributes).some((attribute) => /^on/i.test(attribute.name)),
        )
        .map((element) => element.outerHTML.slice(0, 120)),
      javascriptLinks: document.querySelectorAll('a[href^="javascript:" i], [src^="javascript:" i]')
        .length,
      payloadScripts: Array.from(document.scripts).filter((script) => script.text.includes('__xss'))
        .length,
    };
  });
}

const INERT = {
  flag: undefined,
  payloadElements: 0,
  handlerAttributes: [],
  javascriptLinks: 0,
  payloadScripts: 0,
};

/** The screen shows every value as text and none of them ran. */
async function expectRenderedAsText(screen: string, values: readonly string[]): Promise<void> {
  await expectShown(values);
  expect(await inertState(page), screen).toEqual(INERT);
  expect(dialogs, screen).toEqual([]);
}

/** Parses `html` into the page, as a component with dangerouslySetInnerHTML would. */
const injectHtml = (on: Page, html: string) =>
  on.evaluate((markup) => document.body.insertAdjacentHTML('beforeend', markup), html);

describe('the XSS checks', () => {
  it('catch a payload that is parsed as HTML', async () => {
    await openPage({ bypassCsp: true });
    await injectHtml(
      page,
      `${imgPayload('canary1')}${svgPayload('canary2')}<img src=x id=canary3 onerror="alert('xss')">`,
    );
    await expect.poll(() => page.evaluate(() => (window as { __xss?: unknown }).__xss)).toBe(1);
    await expect.poll(() => dialogs).toEqual(['xss']);
    const state = await inertState(page);
    // Both images and the svg (whose onload a fragment parse does not fire) are found.
    expect(state.payloadElements).toBe(3);
    expect(state.handlerAttributes).toHaveLength(3);
  });

  it('are backed by the Content-Security-Policy, which refuses inline handlers', async () => {
    await openPage({ bypassCsp: false });
    await page.evaluate(() => {
      const seen = window as { __violations?: string[] };
      seen.__violations = [];
      document.addEventListener('securitypolicyviolation', (event) =>
        seen.__violations?.push(event.effectiveDirective),
      );
    });
    await injectHtml(page, svgPayload('canary3'));
    await expect
      .poll(() => page.evaluate(() => (window as { __violations?: string[] }).__violations))
      .toContain('script-src-attr');
    expect(await page.evaluate(() => (window as { __xss?: unknown }).__xss)).toBeUndefined();
    expect(dialogs).toEqual([]);
  });
});

describe('the API', () => {
  it('refuses hostile values where it validates the field', async () => {
    const refused = async (method: string, path: string, body: unknown) =>
      (await call(method, path, body)).status;
    // Image names allow letters, digits, spaces and ! * ' ( ) . _ - only.
    await expect(
      refused('POST', '/v1/admin/otaimage', {
        image_name: imgPayload('iname'),
        type: 'Air Conditioner',
        base64_fwimage: Buffer.alloc(16).toString('base64'),
      }),
    ).resolves.toBe(400);
    // Node ids allow letters, digits, _ and -.
    await expect(
      refused('POST', '/v1/admin/node_ids', {
        nodes: [{ node_id: svgPayload('id'), type: 'Air Conditioner', model: 'AC-1' }],
      }),
    ).resolves.toBe(400);
    // A tag must be key:value.
    await expect(
      refused('PUT', `/v1/admin/nodes?node_id=${DEVICE_ID}`, { tags: [imgPayload('tag')] }),
    ).resolves.toBe(400);
    // User names are e-mail addresses.
    await expect(
      refused('POST', '/v1/admin/user2', {
        user_name: `${imgPayload('mail')}@fleetdeck.test`,
        roles: ['service_engineer_role'],
      }),
    ).resolves.toBe(400);
    // The template's sender name goes into a mail header: no quotes or angle brackets.
    await expect(
      refused('POST', '/v1/admin/message_template', {
        template_type: INVITE_MESSAGE_TEMPLATE_TYPE,
        message_subject: 'Welcome',
        message_text: 'Start here: {{link}}',
        from_user_name: svgPayload('from'),
      }),
    ).resolves.toBe(400);
    // A type the device makes up is not stored; its name, model and version are, verbatim.
    await expect(storedNode(DEVICE_ID)).resolves.toMatchObject({
      type: 'Air Conditioner',
      name: P.nodeName,
      model: P.model,
      fw_version: P.fwVersion,
    });
  });
});

describe('stored payloads on the dashboard', () => {
  beforeEach(() => openPage({ bypassCsp: true }));

  it('shows node tags and device-reported fields as text on the device screens', async () => {
    await page.goto('/home/nodes');
    await expectRenderedAsText('devices', [P.location, P.serial, P.model, P.fwVersion, JS_URL]);
    await screenshot(page, 'xss-devices');

    await page.goto('/home/Georegion');
    await page.getByRole('heading', { name: 'Search By Geo Region' }).waitFor();
    await page.getByLabel('Location', { exact: true }).fill(P.location);
    await expect
      .poll(() =>
        page
          .getByTestId('node-table')
          .locator('tbody tr[data-node-id]')
          .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-node-id'))),
      )
      .toEqual([DEVICE_ID]);
    await expectRenderedAsText('geo region', [P.location, P.serial, P.model]);

    await page.goto('/home/Productserial');
    const serial = page.getByPlaceholder('Enter Serial no.');
    await serial.fill(P.serial);
    await serial.press('Enter');
    await page.locator(`tr[data-node-id="${DEVICE_ID}"]`).waitFor();
    await expectRenderedAsText('product serial', [P.serial, P.location, P.fwVersion]);
  });

  it('shows the group name, description and filter as text in the list and the details', async () => {
    await page.goto('/home/node-groups/');
    await page.locator(`tr[data-group-id="${groupId}"]`).waitFor();
    await expectRenderedAsText('device groups', [P.groupName, P.groupDescription]);

    await page.goto(`/home/node-groups/${groupId}`);
    await page.locator(`tr[data-node-id="${DEVICE_ID}"]`).waitFor({ timeout: 10_000 });
    await expectRenderedAsText('group details', [
      P.groupName,
      P.groupDescription,
      `node_model:${P.model}`,
      P.location,
    ]);
    await screenshot(page, 'xss-group-details');
  });

  it('shows the firmware image fields as text in the list and the details', async () => {
    await page.goto('/home/firmware-images');
    await page.locator(`tr[data-image-id="${imageId}"]`).waitFor();
    await expectRenderedAsText('firmware images', [
      IMAGE_NAME,
      P.imageType,
      P.imageVersion,
      P.imageModel,
    ]);

    await page.goto(`/home/image-details/${imageId}`);
    await expectRenderedAsText('image details', [
      P.imageType,
      P.imageVersion,
      P.imageModel,
      P.imageFile,
    ]);
  });

  it('shows user names as text in User Registration and the user details', async () => {
    await page.goto('/home/userregistration/');
    await page.locator(`tr[data-user-name="${USER_NAME}"]`).waitFor();
    await expectRenderedAsText('user registration', [`${P.firstName} ${P.lastName}`]);

    await page.goto(`/home/user-details/${USER_NAME}`);
    await expectRenderedAsText('user details', [P.firstName, P.lastName, P.city]);
  });

  it('shows the email template as text, and an unknown placeholder in the error as text', async () => {
    await page.goto('/home/deployment-settings/?tab=email-configurations');
    const form = page.getByTestId('email-template-form');
    await form.waitFor();
    await expectRenderedAsText('email template', [P.subject, P.body]);

    // The server names unknown placeholders in its answer, and the screen shows that answer.
    const placeholder = imgPayload('ph');
    await form.getByLabel('Template body').fill(`Hi {{${placeholder}}} {{link}}`);
    await form.getByRole('button', { name: 'Save template' }).click();
    await page.getByTestId('template-error').waitFor();
    await expect
      .poll(() => page.getByTestId('template-error').innerText())
      .toContain(`{{${placeholder}}}`);
    await expectRenderedAsText('email template error', [`{{${placeholder}}}`]);
  });

  it('shows what the device reports in its diagnostics as text', async () => {
    await page.goto(`/home/diagnostics/report/${DEVICE_ID}`);
    await page.getByTestId('log-row').first().waitFor({ timeout: 10_000 });
    // The newest crash opens with its details: cause and backtrace.
    await page.getByTestId('backtrace').first().waitFor();
    await expectRenderedAsText('diagnostics report', [
      P.project,
      P.appVersion,
      P.logTag,
      P.logMessage,
      P.crashCause,
      P.backtraceMethod,
      P.backtraceFile,
    ]);

    await page.goto(`/home/diagnostics/paramvalues/${DEVICE_ID}`);
    await page.getByTestId('variables').waitFor({ timeout: 10_000 });
    await expectRenderedAsText('diagnostics variables', [P.variableLabel, P.variableValue]);

    await page.goto(`/home/diagnostics/metrics/${DEVICE_ID}`);
    const graph = page.getByTestId('graph-1');
    await graph.getByRole('combobox', { name: 'Metrics' }).click();
    await page.getByRole('option', { name: P.metricLabel, exact: true }).waitFor();
    await expectRenderedAsText('diagnostics graphs', [P.metricLabel]);
  });
});
