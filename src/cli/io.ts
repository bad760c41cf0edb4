// Where the CLI writes and what environment it reads. The binary uses the process's; tests run `main(argv, io)`
// in-process with their own, so a command costs milliseconds instead of a Node start.
import { AsyncLocalStorage } from 'node:async_hooks';

export interface CliWriter {
  /** Bytes only from commands that write a binary file to standard output (`convert --to yolo`). */
  write(chunk: string | Uint8Array): unknown;
  /** A terminal: progress bars are drawn only there. */
  isTTY?: boolean;
}

export interface CliIo {
  stdout: CliWriter;
  stderr: CliWriter;
  env: NodeJS.ProcessEnv;
  /** Standard input, for the commands that read a file from `-`; the process's when absent. */
  stdin?: AsyncIterable<Uint8Array> | Iterable<Uint8Array>;
}

export function processIo(): CliIo {
  return { stdout: process.stdout, stderr: process.stderr, env: process.env, stdin: process.stdin };
}

// Commands are run inside `withIo`, so helpers deep in a command (printResult, envSecret) reach the caller's io
// without every signature carrying it, and concurrent in-process runs do not see each other's.
const current = new AsyncLocalStorage<CliIo>();

/** The io of the command running now; the process's outside of one. */
export function cliIo(): CliIo {
  return current.getStore() ?? processIo();
}

export function withIo<T>(io: CliIo, fn: () => T): T {
  return current.run(io, fn);
}
