// The editor's asset URLs (GET /recordings/{id}/assets): the bulk signer without HTTP, for a server-side account.
import { setAssetSigner, type AssetSigner } from '../recordings/assets-route.js';
import { ApiError } from '../http/problem.js';
import { filenameProblem } from './filename.js';
import { assertDirectories, issuerFor, providersFor } from './issue.js';
import { findAccountByName, toAccount } from './queries.js';

const signAssets: AssetSigner = async (app, input) => {
  // The operator names the account: one of the caller's organisation, or a service-wide one (made by the CLI).
  const row = await findAccountByName(app.store.db, input.account);
  if (!row || row.enabled !== 1 || (row.org_id !== null && row.org_id !== input.orgId)) {
    throw new ApiError(401, 'invalid_credentials', `The storage account "${input.account}" is unknown in this organisation or disabled`);
  }
  const account = toAccount(row);
  for (const item of input.items) {
    const bad = filenameProblem(item.filename);
    if (bad) throw new ApiError(400, 'invalid_filename', `${item.filename}: ${bad}`);
  }
  const names = input.items.map((i) => i.provider ?? account.defaultProvider);
  const providers = await providersFor(app, account, names);
  assertDirectories(account, input.items.map((i) => i.filename));
  // Without STORAGE_PUBLIC_URL a relative URL is right: the editor is served by this same host.
  const issue = issuerFor(app, account, () => app.config.storage.publicUrl ?? '');
  const out: Record<string, string> = {};
  input.items.forEach((item, i) => {
    Object.defineProperty(out, item.filename, { value: issue(providers.get(names[i]!)!, item.filename, item.uriExpiryTime), enumerable: true, writable: true, configurable: true });
  });
  return out;
};

export function installAssetSigner(): void {
  setAssetSigner(signAssets);
}
