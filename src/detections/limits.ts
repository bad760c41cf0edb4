// Limits of spec §7 and §4.3, in one place.
export const MAX_BODY_BYTES = 32 * 1024 * 1024;
export const MAX_TRACKS = 5000;
export const MAX_BOXES_PER_TRACK = 100_000;
export const MAX_CATEGORIES = 1000;
/**
 * Not in the spec: far deeper categories could not be written back out (JSON.stringify recurses, and overflows the
 * stack a few thousand levels down).
 */
export const MAX_CATEGORIES_DEPTH = 1000;
export const MAX_META_BYTES = 4096;
export const MAX_RUN_ID_BYTES = 128;
export const MAX_NAME_BYTES = 128;
export const MAX_TRACK_ID_BYTES = 64;
export const MAX_SOURCE_BYTES = { name: 64, version: 32, kind: 64 } as const;
export const MAX_CENTROIDS_PER_TRACK = 10;
/** RUN_REVISIONS_KEPT's default: the revisions a run keeps, the current one included (spec §9). */
export const DEFAULT_RUN_REVISIONS_KEPT = 20;
