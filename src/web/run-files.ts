// Runs as files of other tools: the formats the server imports and exports, and the two raw-body calls (the
// JSON `request` of api.ts sends and reads JSON only). Kept in step with the server's list by a unit test.
import { ApiProblem } from './api.js';

export const FILE_FORMATS = [
  { name: 'mot', label: 'MOT (text)', type: 'text/plain', accept: '.txt,.csv' },
  { name: 'cvat-video', label: 'CVAT for video 1.1 (XML)', type: 'application/xml', accept: '.xml' },
  { name: 'coco', label: 'COCO / TAO (JSON)', type: 'application/json', accept: '.json' },
  { name: 'yolo', label: 'YOLO / ultralytics (zip)', type: 'application/zip', accept: '.zip' },
  { name: 'supervision-csv', label: 'supervision CSVSink (CSV)', type: 'text/csv', accept: '.csv' },
  { name: 'kitti', label: 'KITTI tracking (text)', type: 'text/plain', accept: '.txt' },
  { name: 'sightline', label: 'Sightline run (JSON)', type: 'application/json', accept: '.json' },
] as const;
export type FileFormatName = (typeof FILE_FORMATS)[number]['name'];

/** The format a file name most likely is, for the import's first guess; the user can change it. */
export function guessFormat(fileName: string): FileFormatName {
  const lower = fileName.toLowerCase();
  if (lower.endsWith('.xml')) return 'cvat-video';
  if (lower.endsWith('.zip')) return 'yolo';
  if (lower.endsWith('.csv')) return 'supervision-csv';
  if (lower.endsWith('.json')) return 'coco';
  return 'mot';
}

export interface ImportRejection {
  trackId: string | null;
  frame: number | null;
  reason: string;
  detail?: string;
  line?: number;
  element?: string;
  index?: number;
  entry?: string;
}
export interface ImportAnswer {
  status: number;
  runId: string;
  tracksStored: number;
  boxesStored: number;
  rejected: ImportRejection[];
  warnings: Array<{ code: string; count: number; message: string }>;
}

/** Where in the file a rejection came from, as people read it. */
export function positionText(r: ImportRejection): string {
  if (r.line !== undefined) return `line ${r.line}`;
  if (r.element !== undefined) return r.element;
  if (r.index !== undefined) return `annotation ${r.index}`;
  if (r.entry !== undefined) return r.entry;
  return '';
}

async function problemOf(res: Response): Promise<ApiProblem> {
  const p = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  return new ApiProblem(
    res.status,
    typeof p.code === 'string' ? p.code : `http_${res.status}`,
    typeof p.detail === 'string' ? p.detail : `The server answered ${res.status}.`,
    p,
  );
}

async function send(path: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(path, init);
  } catch {
    throw new ApiProblem(0, 'network', '');
  }
}

/** POST /detections/import with the file as the body. A 400 with a rejection list is an answer, not a failure. */
export async function importFile(
  token: string,
  file: Blob,
  query: Record<string, string>,
): Promise<ImportAnswer | ApiProblem> {
  const format = FILE_FORMATS.find((f) => f.name === query.format)!;
  const res = await send(`/detections/import?${new URLSearchParams(query)}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': format.type, accept: 'application/json' },
    body: file,
  });
  if (!res.ok) return problemOf(res);
  return { status: res.status, ...((await res.json()) as Omit<ImportAnswer, 'status'>) };
}

/** GET /detections/{runId}/export as a file the browser saves under the server's name. */
export async function downloadExport(
  token: string,
  runId: string,
  query: Record<string, string>,
): Promise<{ name: string; bytes: number }> {
  const res = await send(`/detections/${encodeURIComponent(runId)}/export?${new URLSearchParams(query)}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  if (!res.ok) throw await problemOf(res);
  const blob = await res.blob();
  const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? `${runId}.out`;
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  // The download has its own copy once click() returns; the URL is freed on the next turn.
  setTimeout(() => URL.revokeObjectURL(url), 0);
  return { name, bytes: blob.size };
}
