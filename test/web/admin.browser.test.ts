// The Administration section in Debian's Chromium against a real server: an owner adds a user and a token, sets
// the retention, connects an fs provider and an account, chooses it for the editor, and the organisation's
// recording then plays its video, without a restart. A viewer is shown no administration at all.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { assetNames } from '../../src/recordings/assets-route.js';
import { bearer, getJson, postJson } from '../support/server.js';
import { signedInPage } from './support.js';
import { describeInChromium } from './chromium-suite.js';

const SAMPLE = fileURLToPath(new URL('../../assets/demo/sample.mp4', import.meta.url));

describeInChromium(
  'administration in Chromium',
  (suite) => {
    async function openAs(role: string, hash: string): Promise<Page> {
      const page = await signedInPage(suite.fx, suite.browser, role, { timeoutMs: 30_000 });
      page.on('dialog', (d) => void d.accept());
      await page.goto(`${suite.fx.server.url}/${hash}`);
      return page;
    }

    it('an owner adds a user and a token, sets retention, connects storage for the editor, and the video plays', async () => {
      const owner = await openAs('owner', `#/recording/${encodeURIComponent(suite.fx.mediaKey)}`);
      // Before: the editor says why there is no video, and what an admin can do.
      await owner.locator('.no-video').waitFor();
      expect(await owner.locator('.no-video').textContent()).toMatch(
        /no storage account for the editor.*Administration/,
      );

      await owner.getByRole('link', { name: 'Administration' }).click();
      await owner.getByRole('heading', { name: 'People' }).waitFor();

      // People: a colleague with a password.
      const colleague = `colleague-${suite.fx.org.name}`;
      const add = owner.getByRole('form', { name: 'Add a user' });
      await add.locator('input[name=username]').fill(colleague);
      await add.locator('select[name=role]').selectOption('editor');
      await add.getByLabel('Password I choose').check();
      await add.locator('input[name=password]').fill('short');
      await add.getByRole('button', { name: 'Add user' }).click();
      await add.getByRole('alert').waitFor();
      expect(await add.getByRole('alert').textContent()).toMatch(/at least 8 characters/);
      await add.locator('input[name=password]').fill('colleague password');
      await add.getByRole('button', { name: 'Add user' }).click();
      await owner.locator(`tr[data-user="${colleague}"]`).waitFor();
      expect(
        (await postJson(`${suite.fx.server.url}/login`, { username: colleague, password: 'colleague password' }))
          .status,
      ).toBe(200);

      // Tokens: the secret once, in a dialog; then never again on the page.
      await owner.getByRole('link', { name: 'Access tokens' }).click();
      const tokenForm = owner.getByRole('form', { name: 'Create a token' });
      await tokenForm.locator('input[name=name]').fill('pipeline');
      await tokenForm.getByRole('button', { name: 'Create token' }).click();
      const secret = (await owner.locator('.secret-once code.secret').textContent())!;
      expect(secret).toMatch(/^sla_/);
      expect((await getJson(`${suite.fx.server.url}/recordings`, bearer(secret))).status).toBe(200);
      await owner.getByRole('button', { name: /close/ }).click();
      await owner.locator('tr[data-token="pipeline"]').waitFor();
      expect(await owner.content()).not.toContain(secret);

      // Retention.
      await owner.getByRole('link', { name: 'Retention' }).click();
      await owner.locator('input[name=retentionDays]').fill('45');
      await owner.getByRole('button', { name: 'Save retention' }).click();
      await owner.getByText('Saved.').waitFor();
      const settings = await getJson(`${suite.fx.server.url}/admin/organisation`, bearer(suite.fx.org.sessions.owner));
      expect(settings.body.data.retentionDays).toBe(45);

      // Storage: an fs provider, an account (its secret once), chosen for the editor.
      await owner.getByRole('link', { name: 'Storage' }).click();
      const providerForm = owner.getByRole('form', { name: 'Create a provider' });
      await providerForm.locator('input[name=providerName]').fill('disk');
      await providerForm.getByRole('button', { name: 'Create provider' }).click();
      await owner.locator('tr[data-provider="disk"]').waitFor();
      const accountName = `web-${suite.fx.org.orgId}`;
      const accountForm = owner.getByRole('form', { name: 'Create an account' });
      await accountForm.locator('input[name=accountName]').fill(accountName);
      await accountForm.getByRole('button', { name: 'Create account' }).click();
      const accountSecret = (await owner
        .locator('code[data-secret="X-Service-Storage-SecretAccessKey"]')
        .textContent())!;
      expect(accountSecret.length).toBeGreaterThan(30);
      await owner.getByRole('button', { name: /close/ }).click();
      await owner.locator(`tr[data-account="${accountName}"]`).waitFor();
      expect(await owner.content()).not.toContain(accountSecret);
      await owner.locator('select[name=editorStorageAccount]').selectOption(accountName);
      await owner.getByText(`The editor's videos are now signed by ${accountName}.`).waitFor();

      // Signed now, but the file is not there yet: the editor says so.
      await owner.goto(`${suite.fx.server.url}/#/recording/${encodeURIComponent(suite.fx.mediaKey)}`);
      await owner.getByText(/is not in storage/).waitFor();

      // The pipeline uploads the video into the provider's folder; the editor then plays it.
      const video = path.join(
        suite.fx.server.config.dataDir,
        'storage',
        suite.fx.org.orgId,
        'disk',
        ...assetNames(suite.fx.mediaKey).video.split('/'),
      );
      fs.mkdirSync(path.dirname(video), { recursive: true });
      fs.copyFileSync(SAMPLE, video);
      await owner.goto(`${suite.fx.server.url}/#/recording/${encodeURIComponent(suite.fx.mediaKey)}`);
      await owner.reload();
      await owner.waitForFunction(
        () => ((document.querySelector('video.video') as HTMLVideoElement | null)?.readyState ?? 0) >= 1,
      );
      expect(await owner.locator('.no-video').count()).toBe(0);

      // The audit log shows what was done.
      await owner.goto(`${suite.fx.server.url}/#/admin/audit`);
      await owner.locator('tr[data-action="organisation.updated"]').first().waitFor();
      const log = (await owner.locator('table[aria-label="Audit log"]').textContent())!;
      for (const action of ['user.created', 'token.created', 'storage.provider.created', 'storage.account.created'])
        expect(log).toContain(action);
      expect(log).not.toContain(secret);
      expect(log).not.toContain(accountSecret);
      await owner.context().close();
    });

    it('shows a viewer and an editor no administration section', async () => {
      for (const role of ['viewer', 'editor']) {
        const page = await openAs(role, '#/recordings');
        await page.locator('header nav').waitFor();
        expect(await page.getByRole('link', { name: 'Administration' }).count()).toBe(0);
        await page.goto(`${suite.fx.server.url}/#/admin/people`);
        await page.getByRole('alert').waitFor();
        expect(await page.getByRole('alert').textContent()).toMatch(/Only owners and admins/);
        expect(await page.locator('table[aria-label="Users"]').count()).toBe(0);
        await page.context().close();
      }
    });
  },
  {
    env: {
      STORAGE_URL_SIGNING_KEY: 'browser-admin-signing-key-0123456789abcdef',
      SIGHTLINE_MASTER_KEY: 'browser-admin-master-key-0123456789',
    },
  },
);
