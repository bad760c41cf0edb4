// Class names of a YOLO dataset: `names:` of data.yaml (a list, an inline list or a mapping of numbers to names),
// else classes.txt (one name a line). Only this key is read, so a small reader does instead of a YAML library.

function unquote(s: string): string {
  const t = s.trim();
  if (t.length >= 2 && t.startsWith('"') && t.endsWith('"')) {
    try {
      return JSON.parse(t) as string;
    } catch {
      return t.slice(1, -1);
    }
  }
  if (t.length >= 2 && t.startsWith("'") && t.endsWith("'")) return t.slice(1, -1).replaceAll("''", "'");
  return t;
}

/** The names of data.yaml by class number; undefined when the file has no `names`. */
export function namesFromYaml(text: string): Map<number, string> | undefined {
  const lines = text.split(/\r?\n/);
  const at = lines.findIndex((l) => /^names\s*:/.test(l));
  if (at === -1) return undefined;
  const names = new Map<number, string>();
  const inline = lines[at]!.replace(/^names\s*:/, '').trim();
  if (inline.startsWith('[')) {
    const body = inline.slice(1, inline.lastIndexOf(']'));
    // Names with commas inside quotes: split on commas outside quotes.
    let i = 0;
    for (const m of body.matchAll(/\s*("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^,]+)/g)) names.set(i++, unquote(m[1]!));
    return names;
  }
  let index = 0;
  for (const line of lines.slice(at + 1)) {
    if (line.trim() === '' || line.trim().startsWith('#')) continue;
    if (!/^\s/.test(line)) break;
    const item = /^\s+-\s+(.*)$/.exec(line);
    if (item) {
      names.set(index++, unquote(item[1]!));
      continue;
    }
    const pair = /^\s+(\d+)\s*:\s*(.*)$/.exec(line);
    if (pair) names.set(Number(pair[1]), unquote(pair[2]!));
  }
  return names;
}

export function namesFromClassesTxt(text: string): Map<number, string> {
  const names = new Map<number, string>();
  text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .forEach((name, i) => {
      if (name !== '') names.set(i, name);
    });
  return names;
}

/** data.yaml as ultralytics writes it: a mapping, each name quoted as JSON (a YAML double-quoted string). */
export function yamlOfNames(names: Map<number, string>): string {
  let text = `nc: ${names.size}\nnames:\n`;
  for (const [i, name] of [...names].sort((a, b) => a[0] - b[0])) text += `  ${i}: ${JSON.stringify(name)}\n`;
  return text;
}
