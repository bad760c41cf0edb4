// Every format by name: its reader, its writer, and what an HTTP answer or a file on disk calls it.
import { cocoReader, cocoWriter } from './coco.js';
import { cvatVideoReader, cvatVideoWriter } from './cvat-video.js';
import { kittiReader, kittiWriter } from './kitti.js';
import { motReader, motWriter } from './mot.js';
import { sightlineReader, sightlineWriter } from './sightline.js';
import { supervisionCsvReader, supervisionCsvWriter } from './supervision-csv.js';
import type { FormatReader, FormatWriter, ReadOptions } from './types.js';
import { yoloReader, yoloWriter } from './yolo.js';

export const formatNames = ['mot', 'cvat-video', 'coco', 'yolo', 'supervision-csv', 'kitti', 'sightline'] as const;
export type FormatName = (typeof formatNames)[number];

export interface FormatInfo {
  contentType: string;
  extension: string;
  /** Pixel formats need a frame size to be read or written. */
  pixel: boolean;
  /** Formats whose file is bytes (a zip), not text. */
  binary: boolean;
  reader: (options?: ReadOptions) => FormatReader;
  writer: FormatWriter;
}

export const formats: Readonly<Record<FormatName, FormatInfo>> = {
  mot: {
    contentType: 'text/plain; charset=utf-8',
    extension: '.txt',
    pixel: true,
    binary: false,
    reader: motReader,
    writer: motWriter,
  },
  'cvat-video': {
    contentType: 'application/xml; charset=utf-8',
    extension: '.xml',
    pixel: true,
    binary: false,
    reader: cvatVideoReader,
    writer: cvatVideoWriter,
  },
  coco: {
    contentType: 'application/json; charset=utf-8',
    extension: '.json',
    pixel: true,
    binary: false,
    reader: cocoReader,
    writer: cocoWriter,
  },
  yolo: {
    contentType: 'application/zip',
    extension: '.zip',
    pixel: false,
    binary: true,
    reader: yoloReader,
    writer: yoloWriter,
  },
  'supervision-csv': {
    contentType: 'text/csv; charset=utf-8',
    extension: '.csv',
    pixel: true,
    binary: false,
    reader: supervisionCsvReader,
    writer: supervisionCsvWriter,
  },
  kitti: {
    contentType: 'text/plain; charset=utf-8',
    extension: '.txt',
    pixel: true,
    binary: false,
    reader: kittiReader,
    writer: kittiWriter,
  },
  sightline: {
    contentType: 'application/json; charset=utf-8',
    extension: '.json',
    pixel: false,
    binary: false,
    reader: sightlineReader,
    writer: sightlineWriter,
  },
};

export const isFormatName = (name: unknown): name is FormatName =>
  typeof name === 'string' && (formatNames as readonly string[]).includes(name);

export function readerFor(name: FormatName, options?: ReadOptions): FormatReader {
  return formats[name].reader(options);
}

export function writerFor(name: FormatName): FormatWriter {
  return formats[name].writer;
}

/** A file name for an export (Content-Disposition, `sightline convert -o` default): a safe stem and the extension. */
export function fileNameFor(name: FormatName, stem: string): string {
  const safe = stem.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[._]+/, '') || 'run';
  return `${safe}${formats[name].extension}`;
}
