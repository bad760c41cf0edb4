// The editor's asset URLs (GET /recordings/{id}/assets): the bulk signer without HTTP, for a server-side account.
import type { AssetSigner } from '../recordings/assets-route.js';
import { ApiError } from '../http/problem.js';
import { filenameProblem } from './filename.js';
import { assertDirectories, issuerFor, providersFor } from './issue.js';
import { findOrganisationAccount, toAccount } from './queries.js';

export const signAssets: AssetSigner = async (app, input) => {
  // Only an account of the recording's own organisation: a recording's mediaKey is whatever its organisation
  // registered, so a service-wide account (or another organisation's) would sign any key on its providers, other
  // tenants' files included.
  const row = await findOrganisationAccount(app.store.db, input.accounts, input.orgId);
  // One code for both (as the storage API answers a bad account), a reason apiece for the editor's message.
  if (!row) {
    throw new ApiError(
      401,
      'invalid_credentials',
      "None of the editor's storage accounts belongs to this organisation",
      {
        reason: 'account_not_in_organisation',
      },
    );
  }
  if (row.enabled !== 1) {
    throw new ApiError(401, 'invalid_credentials', `The editor's storage account "${row.name}" is disabled`, {
      reason: 'account_disabled',
    });
  }
  const account = toAccount(row);
  for (const item of input.items) {
    const bad = filenameProblem(item.filename);
    if (bad) throw new ApiError(400, 'invalid_filename', `${item.filename}: ${bad}`);
  }
  const names = input.items.map((i) => i.provider ?? account.defaultProvider);
  const providers = await providersFor(app, account, names);
  assertDirectories(
    account,
    input.items.map((i) => i.filename),
  );
  // Without STORAGE_PUBLIC_URL a relative URL is right: the editor is served by this same host.
  const issuer = issuerFor(app, account, () => app.config.storage.publicUrl ?? '');
  const out: Record<string, string> = {};
  input.items.forEach((item, i) => {
    Object.defineProperty(out, item.filename, {
      value: issuer.issue(providers.get(names[i]!)!, item.filename, item.uriExpiryTime),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  });
  return out;
};
