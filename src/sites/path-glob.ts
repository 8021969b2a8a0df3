// include_paths / exclude_paths globs (docs/api.md "Sites"): a glob matches the whole of the URL's path,
// plus `?` and the query when there is one; `*` is any run of characters but `/`, `**` any run, and
// every other character stands for itself (`?` and `.` included).

export const MAX_GLOBS = 50;

/** The text a glob is matched against: the path, and `?query` when the URL has a query. */
export function globSubject(url: URL): string {
  return url.pathname + url.search;
}

/** A glob as an anchored regular expression. */
export function compileGlob(glob: string): RegExp {
  let source = '';
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i]!;
    if (char === '*' && glob[i + 1] === '*') {
      source += '.*';
      i++;
    } else if (char === '*') {
      source += '[^/]*';
    } else {
      source += char.replace(/[\\^$.|?+()[\]{}]/g, '\\$&');
    }
  }
  return new RegExp(`^${source}$`, 's');
}

/** The path filter of a job: exclude wins; without include globs every path is in. */
export function pathFilter(include: readonly string[] = [], exclude: readonly string[] = []): (url: URL) => boolean {
  const includes = include.map(compileGlob);
  const excludes = exclude.map(compileGlob);
  return (url) => {
    const subject = globSubject(url);
    if (excludes.some((glob) => glob.test(subject))) return false;
    return includes.length === 0 || includes.some((glob) => glob.test(subject));
  };
}
