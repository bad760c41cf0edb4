// The editor runs in a browser: its files see the DOM (the root tsconfig type-checks them too).
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
