/** One line of a data-dir JSON-lines file, or undefined when it does not parse (a torn append). */
export function parseJsonLine(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}
