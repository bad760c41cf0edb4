// Content-Type by extension, for providers (fs) that keep none.
const TYPES: Record<string, string> = {
  mp4: 'video/mp4', m4v: 'video/mp4', mov: 'video/quicktime', webm: 'video/webm', mkv: 'video/x-matroska',
  ts: 'video/mp2t', m3u8: 'application/vnd.apple.mpegurl', mpd: 'application/dash+xml',
  jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png', gif: 'image/gif', webp: 'image/webp', avif: 'image/avif',
  json: 'application/json', txt: 'text/plain; charset=utf-8', csv: 'text/csv; charset=utf-8', vtt: 'text/vtt; charset=utf-8',
  pdf: 'application/pdf', zip: 'application/zip', gz: 'application/gzip', mp3: 'audio/mpeg', wav: 'audio/wav',
};

export function contentTypeFor(filename: string): string {
  const base = filename.slice(filename.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return (dot > 0 && TYPES[base.slice(dot + 1).toLowerCase()]) || 'application/octet-stream';
}
