// The storage administration (storage/admin.ts) with its audit entries, for the admin HTTP API and the CLI alike.
// Storage's operations commit their own change, so the entry is written right after it, by the same request; a
// failed change writes none. Never a credential or a secret in an entry: names, types and bindings only.
import type { Config } from '../config.js';
import type { Store } from '../db/store.js';
import { changeAccount, createAccount, createProvider, enableProvider, rotateAccount } from '../storage/admin.js';
import type { Owner } from '../storage/queries.js';
import type { Actor } from './actor.js';
import { recordAudit } from './audit.js';

export async function auditedCreateProvider(
  store: Store,
  config: Config,
  actor: Actor,
  owner: Owner,
  input: Parameters<typeof createProvider>[3],
  caller: 'operator' | 'organisation',
) {
  const view = await createProvider(store, config, owner, input, caller);
  await recordAudit(
    store.db,
    owner,
    actor,
    'storage.provider.created',
    { type: 'storage_provider', name: view.name },
    {
      type: view.type,
      enabled: view.enabled,
    },
  );
  return view;
}

export async function auditedEnableProvider(store: Store, actor: Actor, owner: Owner, name: string, enabled: boolean) {
  const view = await enableProvider(store, owner, name, enabled);
  await recordAudit(store.db, owner, actor, enabled ? 'storage.provider.enabled' : 'storage.provider.disabled', {
    type: 'storage_provider',
    name: view.name,
  });
  return view;
}

export async function auditedCreateAccount(store: Store, actor: Actor, owner: Owner, input: Record<string, unknown>) {
  const created = await createAccount(store, owner, input);
  await recordAudit(
    store.db,
    owner,
    actor,
    'storage.account.created',
    { type: 'storage_account', name: created.name },
    {
      defaultProvider: created.defaultProvider,
      providers: created.providers,
      directories: created.directories,
    },
  );
  return created;
}

export async function auditedChangeAccount(
  store: Store,
  actor: Actor,
  owner: Owner,
  name: string,
  patch: Record<string, unknown>,
) {
  const view = await changeAccount(store, owner, name, patch);
  const changed = Object.fromEntries(
    Object.keys(patch).map((k) => [k, (view as unknown as Record<string, unknown>)[k]]),
  );
  await recordAudit(
    store.db,
    owner,
    actor,
    'storage.account.updated',
    { type: 'storage_account', name: view.name },
    changed,
  );
  return view;
}

export async function auditedRotateAccount(store: Store, actor: Actor, owner: Owner, name: string) {
  const rotated = await rotateAccount(store, owner, name);
  await recordAudit(store.db, owner, actor, 'storage.account.rotated', { type: 'storage_account', name: rotated.name });
  return rotated;
}
