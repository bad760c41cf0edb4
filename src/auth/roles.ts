export const USER_ROLES = ['owner', 'admin', 'editor', 'viewer'] as const;
export type UserRole = (typeof USER_ROLES)[number];
/** The only role an access token has: read and write detections, nothing administrative. */
export const TOKEN_ROLE = 'application';
export type Role = UserRole | typeof TOKEN_ROLE;

const WRITERS: ReadonlySet<string> = new Set(['owner', 'admin', 'editor', TOKEN_ROLE]);
const ADMINS: ReadonlySet<string> = new Set(['owner', 'admin']);

export const canWriteDetections = (role: string): boolean => WRITERS.has(role);
export const isAdministrator = (role: string): boolean => ADMINS.has(role);
export const isUserRole = (role: string): role is UserRole => (USER_ROLES as readonly string[]).includes(role);
