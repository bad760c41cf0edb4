// Recording keys look like `<dir>/<unixSeconds>_<rest>.mp4`; the start time is read from the name.

/** Unix seconds from a key such as `alice/1700000000_6-967003_cam1.mp4`, or undefined. */
export function startFromMediaKey(mediaKey: string): number | undefined {
  const file = mediaKey.slice(mediaKey.lastIndexOf('/') + 1);
  const match = /^(\d{9,11})_/.exec(file);
  if (!match) return undefined;
  const seconds = Number(match[1]);
  return Number.isSafeInteger(seconds) ? seconds : undefined;
}
