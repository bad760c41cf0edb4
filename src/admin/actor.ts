// Who makes an admin change: a user over HTTP (owner or admin of the organisation), or the operator at the CLI.
export interface Actor {
  kind: 'user' | 'cli';
  /** The user's id; null for the CLI. */
  id: string | null;
  /** The username, or the operating-system user running the CLI. */
  name: string | null;
  /** owner / admin for a user; 'operator' for the CLI (shell access to the store is every right). */
  role: string;
  /** The client's address; null for the CLI. */
  address: string | null;
}
