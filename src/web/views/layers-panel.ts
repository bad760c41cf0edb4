// The layers panel: one layer per run, grouped by source.name, oldest first, with version and counts; per
// layer visibility, opacity, colour mode and confidence threshold, and the save/delete actions.
import { h, type ComponentChild } from 'preact';
import { isoShort, pct } from '../format.js';
import { boxCount, groupLayers, type ColorBy, type Layer, type LayerGroup } from '../editor/layers.js';
import type { SaveMode } from '../editor/corrections.js';
import { userText, userTextPlain } from '../user-text.js';

export interface LayersPanelProps {
  layers: Layer[];
  canWrite: boolean;
  busy: boolean;
  /** Something about a layer's look changed; redraw. */
  onChange: (structural: boolean) => void;
  onSave: (layer: Layer, mode: SaveMode) => void;
  onDelete: (layer: Layer) => void;
  /** The layer's export control (run-export.ts), given by the editor. */
  exportOf?: (layer: Layer, name: string) => ComponentChild;
}

const value = (e: Event) => (e.target as HTMLInputElement).value;

/** A layer's name for screen readers: sibling runs share the group's name, so they add their runId. */
const named = (group: LayerGroup, layer: Layer) =>
  userTextPlain(group.layers.length > 1 ? `${group.name} (${layer.runId})` : group.name);

export function LayersPanel(props: LayersPanelProps) {
  const groups = groupLayers(props.layers);
  if (groups.length === 0)
    return h(
      'aside',
      { class: 'layers' },
      h('h2', null, 'Layers'),
      h('p', { class: 'empty' }, 'This recording has no detection runs yet.'),
    );
  return h(
    'aside',
    { class: 'layers' },
    h('h2', null, 'Layers'),
    groups.map((group) =>
      h(
        'section',
        { class: 'layer-group', 'data-group': group.name, key: group.name },
        h(
          'h3',
          null,
          h('input', {
            type: 'checkbox',
            class: 'group-visible',
            title: 'Show or hide every run of this source',
            'aria-label': `Show the runs of ${userTextPlain(group.name)}`,
            // Some runs hidden reads as partial; a click then shows them all.
            checked: group.layers.every((l) => l.visible),
            indeterminate: group.layers.some((l) => l.visible) && !group.layers.every((l) => l.visible),
            onChange: (e: Event) => {
              for (const l of group.layers) l.visible = (e.target as HTMLInputElement).checked;
              props.onChange(true);
            },
          }),
          h('span', { class: 'group-name' }, userText(group.name)),
          group.layers.length > 1 ? h('span', { class: 'muted' }, ` · ${group.layers.length} runs`) : null,
        ),
        group.layers.map((layer) =>
          h(
            'div',
            { class: `layer${layer.edited ? ' edited' : ''}`, 'data-run-id': layer.runId, key: layer.runId },
            h(
              'label',
              { class: 'layer-head' },
              h('input', {
                type: 'checkbox',
                class: 'layer-visible',
                'aria-label': `Show ${named(group, layer)}`,
                checked: layer.visible,
                onChange: (e: Event) => {
                  layer.visible = (e.target as HTMLInputElement).checked;
                  props.onChange(true);
                },
              }),
              h('span', { class: 'layer-name' }, userText(group.name)),
              layer.run.source.version ? h('span', { class: 'muted' }, ` v${layer.run.source.version}`) : null,
              layer.run.source.kind === 'human' ? h('span', { class: 'tag' }, 'human') : null,
              h('span', { class: 'muted layer-revision' }, ` r${layer.revision}`),
              layer.edited ? h('span', { class: 'tag warn' }, 'edited') : null,
            ),
            h(
              'div',
              { class: 'muted small' },
              userText(layer.runId),
              ` · ${layer.tracks.length} tracks · ${boxCount(layer)} boxes · ${isoShort(layer.run.createdAt)}`,
            ),
            h(
              'label',
              { class: 'control' },
              'Opacity',
              h('input', {
                type: 'range',
                class: 'layer-opacity',
                'aria-label': `Opacity of ${named(group, layer)}`,
                min: 0,
                max: 1,
                step: 0.05,
                value: layer.opacity,
                onInput: (e: Event) => {
                  layer.opacity = Number(value(e));
                  props.onChange(false);
                },
              }),
              h('span', null, pct(layer.opacity)),
            ),
            h(
              'label',
              { class: 'control' },
              'Min confidence',
              h('input', {
                type: 'range',
                class: 'layer-threshold',
                'aria-label': `Minimum confidence of ${named(group, layer)}`,
                min: 0,
                max: 1,
                step: 0.01,
                value: layer.threshold,
                onInput: (e: Event) => {
                  layer.threshold = Number(value(e));
                  props.onChange(true);
                },
              }),
              h('span', { class: 'threshold-value' }, layer.threshold.toFixed(2)),
            ),
            h(
              'label',
              { class: 'control' },
              'Colour by',
              h(
                'select',
                {
                  class: 'layer-color',
                  'aria-label': `Colour ${named(group, layer)} by`,
                  value: layer.colorBy,
                  onChange: (e: Event) => {
                    layer.colorBy = value(e) as ColorBy;
                    props.onChange(true);
                  },
                },
                h('option', { value: 'label' }, 'label'),
                h('option', { value: 'track' }, 'track'),
              ),
            ),
            props.exportOf?.(layer, named(group, layer)),
            props.canWrite
              ? h(
                  'div',
                  { class: 'actions' },
                  h(
                    'button',
                    {
                      class: 'save-replace',
                      disabled: !layer.edited || props.busy,
                      onClick: () => props.onSave(layer, 'replace'),
                      title: 'Send the changed tracks (PATCH) against the revision the layer was loaded from',
                      'aria-label': `Save ${named(group, layer)}`,
                    },
                    'Save',
                  ),
                  h(
                    'button',
                    {
                      class: 'save-new',
                      disabled: !layer.edited || props.busy,
                      onClick: () => props.onSave(layer, 'new'),
                      title: 'Post the corrected run as a new layer (source.kind "human")',
                      'aria-label': `Save ${named(group, layer)} as a new layer`,
                    },
                    'Save as new layer',
                  ),
                  h(
                    'button',
                    {
                      class: 'delete-layer danger',
                      disabled: props.busy,
                      onClick: () => props.onDelete(layer),
                      'aria-label': `Delete layer ${named(group, layer)}`,
                    },
                    'Delete layer',
                  ),
                )
              : null,
          ),
        ),
      ),
    ),
  );
}
