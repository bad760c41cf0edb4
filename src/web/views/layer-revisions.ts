// A layer's revisions (GET /detections/{runId}/revisions), newest first, each restorable after a confirmation
// (POST /detections/{runId}/revisions/{N}/restore). Shown on demand: the list is read when it is opened.
import { h } from 'preact';
import { useState } from 'preact/hooks';
import { inWords } from '../api.js';
import type { Call } from '../call.js';
import { isoShort } from '../format.js';
import type { RevisionSummary } from '../types.js';
import { userText, userTextPlain } from '../user-text.js';

export interface LayerRevisionsProps {
  call: Call;
  runId: string;
  mediaKey: string;
  name: string;
  canWrite: boolean;
  /** Unsaved corrections in the layer: a restore drops them, and says so first. */
  edited: boolean;
  /** A revision was restored: read the layer again. */
  onRestored: (revision: number, from: number) => void;
}

export function LayerRevisions(props: LayerRevisionsProps) {
  const [list, setList] = useState<RevisionSummary[] | undefined>();
  const [note, setNote] = useState<string | undefined>();
  const path = `/detections/${encodeURIComponent(props.runId)}`;
  const query = `?mediaKey=${encodeURIComponent(props.mediaKey)}`;

  async function load() {
    setNote(undefined);
    try {
      const res = await props.call<{ data: { revisions: RevisionSummary[] } }>(`${path}/revisions${query}`);
      setList(res.data.revisions);
    } catch (err) {
      setNote(inWords(err));
    }
  }

  async function restore(n: number) {
    const lost = props.edited ? ' Your unsaved corrections of this layer will be dropped.' : '';
    if (
      !confirm(
        `Restore revision ${n} of ${userTextPlain(props.name)}? It becomes the current content under a new revision number.${lost}`,
      )
    )
      return;
    try {
      const res = await props.call<{ data: { revision: number } }>(`${path}/revisions/${n}/restore${query}`, {
        method: 'POST',
      });
      setList(undefined);
      props.onRestored(res.data.revision, n);
    } catch (err) {
      setNote(`Not restored: ${inWords(err)}`);
    }
  }

  return h(
    'details',
    {
      class: 'revisions',
      onToggle: (e: Event) => {
        if ((e.currentTarget as HTMLDetailsElement).open) void load();
      },
    },
    h('summary', { 'aria-label': `Revisions of ${props.name}` }, 'Revisions'),
    note ? h('p', { class: 'error small', role: 'alert' }, note) : null,
    list
      ? h(
          'ol',
          { class: 'revision-list' },
          list.map((r) =>
            h(
              'li',
              { key: r.revision, 'data-revision': r.revision },
              h('strong', null, `r${r.revision}`),
              ` · ${isoShort(r.createdAt)} · ${r.tracksStored} tracks · ${r.boxesStored} boxes`,
              r.editedBy ? [' · ', userText(r.editedBy)] : null,
              r.current
                ? h('span', { class: 'tag' }, 'current')
                : props.canWrite
                  ? h(
                      'button',
                      {
                        class: 'restore-revision',
                        onClick: () => void restore(r.revision),
                        'aria-label': `Restore revision ${r.revision} of ${props.name}`,
                      },
                      'Restore',
                    )
                  : null,
            ),
          ),
        )
      : null,
  );
}
