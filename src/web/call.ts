// How a view calls the API: the shell's request function with the session's token already applied.
import type { RequestOptions } from './api.js';

export type Call = <T>(path: string, options?: RequestOptions) => Promise<T>;
