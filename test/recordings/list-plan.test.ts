// The recording list's query plans on SQLite (which, without statistics, picks an index by its shape): a filter
// must be read through an index that holds it, not by walking the organisation's every recording.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestStore, type TestStore } from '../support/store.js';
import { listRecordingsPage, type ListFilters } from '../../src/recordings/queries.js';

describe('recording list plans on sqlite', () => {
  let ts: TestStore;
  beforeAll(async () => {
    ts = await createTestStore('sqlite');
  });
  afterAll(async () => {
    await ts.destroy();
  });

  /** SQLite's plan for the statement listRecordingsPage runs with these filters. */
  async function planOf(filters: ListFilters): Promise<string> {
    const sqlite = ts.store.sqlite!;
    const prepare = sqlite.prepare.bind(sqlite);
    const seen: string[] = [];
    sqlite.prepare = ((source: string) => {
      seen.push(source);
      return prepare(source);
    }) as typeof sqlite.prepare;
    try {
      await listRecordingsPage(ts.store.db, 'org', filters);
    } finally {
      sqlite.prepare = prepare;
    }
    const statement = seen.find((s) => /from "recordings"/i.test(s));
    expect(statement).toBeDefined();
    const params = Array.from({ length: (statement!.match(/\?/g) ?? []).length }, (_, i) => (i === 0 ? 'org' : 'x'));
    return sqlite
      .prepare(`explain query plan ${statement}`)
      .all(...params)
      .map((r) => (r as { detail: string }).detail)
      .join('\n');
  }

  it('reads a device filter through the device index in the list order, without a sort', async () => {
    const plan = await planOf({ device: 'cam3', limit: 50 });
    expect(plan).toMatch(/recordings_org_device_start_id/);
    expect(plan).not.toMatch(/TEMP B-TREE/);
  });
});
