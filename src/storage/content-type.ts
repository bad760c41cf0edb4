// Content-Type by extension, for providers that keep none (fs, or a backend object stored without one). Active
// types (html, svg, js) are named truthfully: signed-routes.ts serves every object in a CSP sandbox.
const TYPES: Record<string, string> = {
  mp4: 'video/mp4', m4v: 'video/mp4', mov: 'video/quicktime', webm: 'video/webm', mkv: 'video/x-matroska',
  avi: 'video/x-msvideo', ogv: 'video/ogg', ts: 'video/mp2t', m3u8: 'application/vnd.apple.mpegurl', mpd: 'application/dash+xml',
  jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png', gif: 'image/gif', webp: 'image/webp', avif: 'image/avif',
  bmp: 'image/bmp', tif: 'image/tiff', tiff: 'image/tiff', ico: 'image/vnd.microsoft.icon', svg: 'image/svg+xml', heic: 'image/heic',
  json: 'application/json', txt: 'text/plain; charset=utf-8', csv: 'text/csv; charset=utf-8', vtt: 'text/vtt; charset=utf-8',
  srt: 'application/x-subrip', html: 'text/html; charset=utf-8', htm: 'text/html; charset=utf-8', css: 'text/css; charset=utf-8',
  js: 'text/javascript; charset=utf-8', mjs: 'text/javascript; charset=utf-8', xml: 'application/xml', md: 'text/markdown; charset=utf-8',
  pdf: 'application/pdf', zip: 'application/zip', gz: 'application/gzip', tar: 'application/x-tar',
  mp3: 'audio/mpeg', wav: 'audio/wav', m4a: 'audio/mp4', aac: 'audio/aac', ogg: 'audio/ogg', oga: 'audio/ogg', opus: 'audio/ogg', flac: 'audio/flac',
};

export function contentTypeFor(filename: string): string {
  const base = filename.slice(filename.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return (dot > 0 && TYPES[base.slice(dot + 1).toLowerCase()]) || 'application/octet-stream';
}
