// Which source file a position in wrangler's bundle came from, read from the bundle's source map
// (version 3: `mappings` in base64 VLQ, one group per generated line). A CPU profile of the Worker
// names functions by their place in the bundle (index.js, line and column); this turns that place
// back into the project's own path (src/api/app.ts, node_modules/hono/…) so time can be charged to it.

export interface SourceMapJson {
  sources: string[];
  mappings: string;
}

export interface SourceLookup {
  /** The source path of a bundle position (0-based line and column), normalised from the project root. */
  sourceAt(line: number, column: number): string | undefined;
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const DIGIT = new Map([...BASE64].map((char, value) => [char, value]));

/** The VLQ fields of one segment (generated column, source, line, column, name — each relative). */
function decodeSegment(segment: string): number[] {
  const fields: number[] = [];
  let value = 0;
  let shift = 0;
  for (const char of segment) {
    const digit = DIGIT.get(char)!;
    value += (digit & 31) << shift;
    if (digit & 32) {
      shift += 5;
      continue;
    }
    fields.push(value & 1 ? -(value >>> 1) : value >>> 1);
    value = 0;
    shift = 0;
  }
  return fields;
}

/**
 * A source path as the project names it: from `node_modules/` (the last one, so a symlinked or
 * nested copy reads the same) or from the first `src/` or `bench/` segment; else as written.
 */
export function projectPath(source: string): string {
  const modules = source.lastIndexOf('node_modules/');
  if (modules >= 0) return source.slice(modules);
  const own = /(?:^|\/)((?:src|bench)\/.*)$/.exec(source);
  return own?.[1] ?? source;
}

export function readSourceMap(map: SourceMapJson): SourceLookup {
  const sources = map.sources.map(projectPath);
  // Per generated line: [generated column, source index] of each segment that names a source.
  const lines: [number, number][][] = [];
  let source = 0;
  for (const group of map.mappings.split(';')) {
    const segments: [number, number][] = [];
    let column = 0;
    for (const text of group.split(',')) {
      if (text === '') continue;
      const fields = decodeSegment(text);
      column += fields[0]!;
      if (fields.length < 4) continue;
      source += fields[1]!;
      // Lines and names are relative too, but only the source is needed here.
      segments.push([column, source]);
    }
    lines.push(segments);
  }
  return {
    sourceAt(line, column) {
      const segments = lines[line];
      if (segments === undefined || segments.length === 0) return undefined;
      let found = segments[0]!;
      for (const segment of segments) {
        if (segment[0] > column) break;
        found = segment;
      }
      return sources[found[1]];
    },
  };
}
