// The tests read JSON bodies loosely, field by field (`(await res.json()).code`), as the DOM's lib types
// Response.json(). Node's types say `unknown`; for the tests (only) the body is `any` again.
interface Response {
  // biome-ignore lint/suspicious/noExplicitAny: a test reads the fields it asserts on
  json(): Promise<any>;
}
