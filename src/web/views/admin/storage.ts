// Storage: providers (credentials entered once, never shown again), accounts (secret shown once, rotate, disable),
// and which account signs the editor's videos.
import { h } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { Call } from '../../call.js';
import { userText } from '../../user-text.js';
import { ErrorLine, ListTable, SecretOnce, Section, adminInWords } from './parts.js';
import type { OrganisationSettings } from './settings.js';

interface Provider {
  name: string;
  type: string;
  config: Record<string, unknown>;
  hasCredentials: boolean;
  enabled: boolean;
}
interface Account {
  name: string;
  accessKey: string;
  defaultProvider: string;
  providers: string[];
  directories: string[];
  enabled: boolean;
}

/** Each type's fields: [config key, label, secret?]. Secrets go in password inputs and are never shown back. */
const FIELDS: Record<string, Array<[string, string, boolean?]>> = {
  fs: [],
  s3: [
    ['bucket', 'Bucket'],
    ['region', 'Region'],
    ['accessKeyId', 'Access key id'],
    ['secretAccessKey', 'Secret access key', true],
  ],
  azure: [
    ['account', 'Storage account'],
    ['container', 'Container'],
    ['accountKey', 'Account key', true],
  ],
  gcs: [
    ['bucket', 'Bucket'],
    ['serviceAccountKey', 'Service account key (JSON)', true],
  ],
};

export function Storage(props: { call: Call }) {
  const { call } = props;
  const [providers, setProviders] = useState<Provider[]>([]);
  const [accounts, setAccounts] = useState<Account[]>([]);
  const [org, setOrg] = useState<OrganisationSettings | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [notice, setNotice] = useState<string | undefined>();
  const [secret, setSecret] = useState<{ title: string; lines: Array<[string, string]> } | undefined>();

  const load = async () => {
    try {
      const [p, a, o] = await Promise.all([
        call<{ data: Provider[] }>('/api/storage/admin/providers'),
        call<{ data: Account[] }>('/api/storage/admin/accounts'),
        call<{ data: OrganisationSettings }>('/admin/organisation'),
      ]);
      setProviders(p.data);
      setAccounts(a.data);
      setOrg(o.data);
    } catch (err) {
      setError(adminInWords(err));
    }
  };
  useEffect(() => void load(), []);

  async function act(fn: () => Promise<unknown>, done?: string) {
    setError(undefined);
    setNotice(undefined);
    try {
      await fn();
      if (done) setNotice(done);
      await load();
    } catch (err) {
      setError(adminInWords(err));
    }
  }
  const showSecret = (title: string, a: Account & { secretAccessKey: string }) =>
    setSecret({
      title,
      lines: [
        ['X-Service-Storage-AccessKey', a.accessKey],
        ['X-Service-Storage-SecretAccessKey', a.secretAccessKey],
      ],
    });

  return h(
    'div',
    null,
    h(ErrorLine, { error }),
    notice ? h('p', { class: 'notice', role: 'status' }, notice) : null,
    h(
      Section,
      { title: 'Storage providers' },
      providers.length === 0
        ? h('p', { class: 'muted' }, 'No providers yet.')
        : h(ListTable, {
            label: 'Providers',
            heads: ['Name', 'Type', 'Settings', 'State', ''],
            rows: providers.map((p) =>
              h(
                'tr',
                { key: p.name, 'data-provider': p.name },
                h('td', null, userText(p.name)),
                h('td', null, p.type),
                h(
                  'td',
                  { class: 'small' },
                  userText(JSON.stringify(p.config)),
                  p.hasCredentials ? ' · credentials stored (encrypted)' : '',
                ),
                h('td', null, p.enabled ? 'enabled' : 'disabled'),
                h(
                  'td',
                  { class: 'actions' },
                  h(
                    'button',
                    {
                      type: 'button',
                      onClick: () => {
                        if (
                          p.enabled &&
                          !confirm(`Disable the provider ${p.name}? Its signed URLs stop working at once.`)
                        )
                          return;
                        void act(() =>
                          call(`/api/storage/admin/providers/${encodeURIComponent(p.name)}`, {
                            method: 'PATCH',
                            body: { enabled: !p.enabled },
                          }),
                        );
                      },
                    },
                    p.enabled ? 'Disable' : 'Enable',
                  ),
                ),
              ),
            ),
          }),
      h(NewProvider, {
        call,
        onCreated: (name) =>
          void act(
            async () => {},
            `Provider ${name} created; its credentials are stored encrypted and will not be shown again.`,
          ),
      }),
    ),
    h(
      Section,
      { title: 'Storage accounts' },
      accounts.length === 0
        ? h('p', { class: 'muted' }, 'No accounts yet.')
        : h(ListTable, {
            label: 'Accounts',
            heads: ['Name', 'Access key', 'Providers', 'Directories', 'State', ''],
            rows: accounts.map((a) =>
              h(
                'tr',
                { key: a.name, 'data-account': a.name },
                h('td', null, userText(a.name)),
                h('td', null, h('code', null, a.accessKey)),
                h('td', null, a.providers.join(', '), ` (default ${a.defaultProvider})`),
                h('td', null, a.directories.join(', ')),
                h('td', null, a.enabled ? 'enabled' : 'disabled'),
                h(
                  'td',
                  { class: 'actions' },
                  h(
                    'button',
                    {
                      type: 'button',
                      onClick: () => {
                        if (!confirm(`Give the account ${a.name} a new secret? The current one stops working at once.`))
                          return;
                        void act(async () =>
                          showSecret(
                            `New secret of ${a.name}`,
                            (
                              await call<{ data: Account & { secretAccessKey: string } }>(
                                `/api/storage/admin/accounts/${encodeURIComponent(a.name)}/rotate`,
                                { method: 'POST', body: {} },
                              )
                            ).data,
                          ),
                        );
                      },
                    },
                    'Rotate secret',
                  ),
                  h(
                    'button',
                    {
                      type: 'button',
                      onClick: () => {
                        if (
                          a.enabled &&
                          !confirm(`Disable the account ${a.name}? Its URLs and requests are refused at once.`)
                        )
                          return;
                        void act(() =>
                          call(`/api/storage/admin/accounts/${encodeURIComponent(a.name)}`, {
                            method: 'PATCH',
                            body: { enabled: !a.enabled },
                          }),
                        );
                      },
                    },
                    a.enabled ? 'Disable' : 'Enable',
                  ),
                ),
              ),
            ),
          }),
      h(NewAccount, { call, providers, onCreated: (a) => void act(async () => showSecret(`Account ${a.name}`, a)) }),
    ),
    h(
      Section,
      { title: 'Editor videos' },
      h(
        'p',
        { class: 'muted small' },
        'The storage account that signs the video addresses the editor plays. Without a choice, the server’s setting (EDITOR_STORAGE_ACCOUNT) applies, if it names an account of this organisation.',
      ),
      org
        ? h(
            'label',
            null,
            'Account for the editor',
            h(
              'select',
              {
                name: 'editorStorageAccount',
                value: org.editorStorageAccount ?? '',
                onChange: (e: Event) => {
                  const value = (e.target as HTMLSelectElement).value;
                  void act(
                    () =>
                      call('/admin/organisation', { method: 'PATCH', body: { editorStorageAccount: value || null } }),
                    value ? `The editor's videos are now signed by ${value}.` : 'The editor uses the server’s setting.',
                  );
                },
              },
              h('option', { value: '' }, 'The server’s setting'),
              ...accounts.map((a) => h('option', { value: a.name }, a.name + (a.enabled ? '' : ' (disabled)'))),
            ),
          )
        : null,
    ),
    secret ? h(SecretOnce, { ...secret, onClose: () => setSecret(undefined) }) : null,
  );
}

function NewProvider(props: { call: Call; onCreated: (name: string) => void }) {
  const [name, setName] = useState('');
  const [type, setType] = useState('fs');
  const [values, setValues] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | undefined>();

  async function submit(event: Event) {
    event.preventDefault();
    setError(undefined);
    if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name))
      return setError('Name the provider with letters, digits, ".", "_" or "-".');
    const missing = FIELDS[type]!.filter(([key]) => !values[key]?.trim()).map(([, label]) => label);
    if (missing.length > 0) return setError(`Fill in: ${missing.join(', ')}.`);
    const config = Object.fromEntries(FIELDS[type]!.map(([key]) => [key, values[key]!.trim()]));
    try {
      await props.call('/api/storage/admin/providers', { method: 'POST', body: { name, type, config } });
      // The credentials leave the page with the request: the form forgets them.
      setValues({});
      setName('');
      props.onCreated(name);
    } catch (err) {
      setError(adminInWords(err));
    }
  }

  return h(
    'form',
    { class: 'admin-form', onSubmit: submit, 'aria-label': 'Create a provider' },
    h('h3', null, 'New provider'),
    h(
      'label',
      null,
      'Name',
      h('input', {
        name: 'providerName',
        value: name,
        onInput: (e: Event) => setName((e.target as HTMLInputElement).value),
      }),
    ),
    h(
      'label',
      null,
      'Type',
      h(
        'select',
        {
          name: 'providerType',
          value: type,
          onChange: (e: Event) => {
            setType((e.target as HTMLSelectElement).value);
            setValues({});
          },
        },
        h('option', { value: 'fs' }, 'fs — a folder on this server'),
        h('option', { value: 's3' }, 's3 — Amazon S3'),
        h('option', { value: 'azure' }, 'azure — Azure Blob Storage'),
        h('option', { value: 'gcs' }, 'gcs — Google Cloud Storage'),
      ),
    ),
    type === 'fs'
      ? h('p', { class: 'muted small' }, 'The server keeps its files in a folder of its own in its data directory.')
      : null,
    ...FIELDS[type]!.map(([key, label, isSecret]) =>
      h(
        'label',
        { key: `${type}-${key}` },
        label,
        key === 'serviceAccountKey'
          ? h('textarea', {
              name: key,
              rows: 4,
              value: values[key] ?? '',
              onInput: (e: Event) => setValues({ ...values, [key]: (e.target as HTMLTextAreaElement).value }),
            })
          : h('input', {
              name: key,
              type: isSecret ? 'password' : 'text',
              autocomplete: 'off',
              value: values[key] ?? '',
              onInput: (e: Event) => setValues({ ...values, [key]: (e.target as HTMLInputElement).value }),
            }),
      ),
    ),
    h(ErrorLine, { error }),
    h('button', { type: 'submit', class: 'primary' }, 'Create provider'),
  );
}

function NewAccount(props: {
  call: Call;
  providers: Provider[];
  onCreated: (a: Account & { secretAccessKey: string }) => void;
}) {
  const [name, setName] = useState('');
  const [defaultProvider, setDefault] = useState('');
  const [directories, setDirectories] = useState('*');
  const [error, setError] = useState<string | undefined>();
  const chosen = defaultProvider || props.providers[0]?.name || '';

  async function submit(event: Event) {
    event.preventDefault();
    setError(undefined);
    if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name))
      return setError('Name the account with letters, digits, ".", "_" or "-".');
    if (!chosen) return setError('Create a provider first: an account signs for its providers.');
    const dirs = directories
      .split(',')
      .map((d) => d.trim())
      .filter(Boolean);
    try {
      const r = await props.call<{ data: Account & { secretAccessKey: string } }>('/api/storage/admin/accounts', {
        method: 'POST',
        body: { name, defaultProvider: chosen, directories: dirs.length > 0 ? dirs : ['*'] },
      });
      setName('');
      props.onCreated(r.data);
    } catch (err) {
      setError(adminInWords(err));
    }
  }

  return h(
    'form',
    { class: 'admin-form', onSubmit: submit, 'aria-label': 'Create an account' },
    h('h3', null, 'New account'),
    h(
      'label',
      null,
      'Name',
      h('input', {
        name: 'accountName',
        value: name,
        onInput: (e: Event) => setName((e.target as HTMLInputElement).value),
      }),
    ),
    h(
      'label',
      null,
      'Default provider',
      h(
        'select',
        {
          name: 'defaultProvider',
          value: chosen,
          onChange: (e: Event) => setDefault((e.target as HTMLSelectElement).value),
        },
        ...props.providers.map((p) => h('option', { value: p.name }, p.name)),
      ),
    ),
    h(
      'label',
      null,
      'Directories (comma-separated; * for all)',
      h('input', {
        name: 'directories',
        value: directories,
        onInput: (e: Event) => setDirectories((e.target as HTMLInputElement).value),
      }),
    ),
    h(ErrorLine, { error }),
    h('button', { type: 'submit', class: 'primary' }, 'Create account'),
  );
}
