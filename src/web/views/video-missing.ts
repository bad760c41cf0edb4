// Why the editor shows no video, in words, with what an owner or admin can do about it: the server's reason when it
// signed no URL (assetsUnavailableReason), or what fetching the signed URL answered when the video would not load.
import type { RecordingAssets } from '../types.js';

const ADMIN = 'An owner or admin can fix this under Administration → Storage.';

/** A signed URL that would not play: what one byte of it answers (missing, refused, or there but unplayable). */
export async function probeVideo(url: string): Promise<string> {
  try {
    const res = await fetch(url, { headers: { range: 'bytes=0-0' } });
    if (res.status === 404) return 'object_missing';
    if (res.status === 401 || res.status === 403) return 'url_refused';
    if (res.ok) return 'unplayable';
    return `http_${res.status}`;
  } catch {
    return 'unreachable';
  }
}

export function videoMissingInWords(info: RecordingAssets, probed: string | undefined): string {
  const blank = ' Boxes play over a blank frame.';
  const reason = info.assetsUnavailableReason ?? info.assetsUnavailable;
  if (info.assets) {
    switch (probed) {
      case 'object_missing':
        return `No video: the file ${info.recording.mediaKey} is not in storage${info.recording.provider ? ` (provider ${info.recording.provider})` : ''}. Upload it there (sightline storage put), or check that the editor's storage account uses the provider that holds it.${blank}`;
      case 'url_refused':
        return `No video: the storage refused the signed address (the account or its provider may have been disabled, or the URL expired). Reload the page; if it persists: ${ADMIN}${blank}`;
      case 'unplayable':
        return `No video: the file is in storage but this browser cannot play it (its format or codec).${blank}`;
      case 'unreachable':
        return `No video: the storage could not be reached from this browser.${blank}`;
      default:
        return `The video could not be loaded${probed ? ` (${probed})` : ''}.${blank}`;
    }
  }
  switch (reason) {
    case 'no_account':
    case 'storage_not_configured':
      return `No video: this organisation has no storage account for the editor. ${ADMIN} (create a provider and an account, then choose it as the editor's account).${blank}`;
    case 'account_not_in_organisation':
      return `No video: the storage account the server names for the editor belongs to no one in this organisation, so it may not sign its videos. ${ADMIN} (create an account of the organisation and choose it as the editor's account).${blank}`;
    case 'account_disabled':
      return `No video: the editor's storage account is disabled. ${ADMIN} (enable it, or choose another account).${blank}`;
    case 'provider_not_allowed':
      return `No video: the editor's storage account may not use the provider this recording is stored on${info.recording.provider ? ` (${info.recording.provider})` : ''}, or that provider is disabled. ${ADMIN} (bind the provider to the account, or enable it).${blank}`;
    case 'directory_not_allowed':
      return `No video: the editor's storage account may not read this recording's folder. ${ADMIN} (allow the folder in the account's directories).${blank}`;
    default:
      return `No video: the server could not sign its address (${reason ?? 'unknown reason'}).${blank}`;
  }
}
