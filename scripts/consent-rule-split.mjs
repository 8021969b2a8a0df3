// Splits autoconsent's compact rule set at build time (scripts/build-page-script.mjs) so a document
// pays only for the rules that can run in it. About three quarters of the set's text is site-specific
// rules, each runnable only on URLs its pattern matches; the package's own filter compiles all ~600
// patterns as regular expressions in every document (5 ms of a fresh renderer's main thread), and
// their text alone, carried in every document's script, delays each document by a few ms more. Here
// each site rule gets, per alternative of its pattern, a piece of literal text every matching URL must
// contain. The preload carries the other rules and these texts; a document whose URL holds none of
// them runs the rest as they are, and one whose URL holds one asks the Durable Object, which keeps the
// site rules, for its rules (src/consent/site-rules.ts): the package's filter still decides,
// on far fewer patterns. A pattern this cannot read safely gets no literals and is always a candidate.

/** Characters that stand for themselves when escaped with a backslash. */
const ESCAPED_LITERAL = /^[^A-Za-z0-9]$/;
/** Escapes that stand for one character of a class, or for a position, with nothing after them. */
const CLASS_ESCAPE = /^[dDwWsSbBnrtfv]$/;
/** Characters that stand for themselves unescaped (outside groups and classes). */
const PLAIN_LITERAL = /^[A-Za-z0-9/:=&%,;!@#~_'"<> -]$/;
const SCHEME = 'https://';
/** Shorter pieces match too many URLs to be worth testing first. */
const MIN_LITERAL = 4;

/** `pattern` split at its top-level `|` (not inside a group, a class or after a backslash). */
export function topLevelAlternatives(pattern) {
  const alternatives = [];
  let depth = 0;
  let inClass = false;
  let start = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') i++;
    else if (inClass) inClass = c !== ']';
    else if (c === '[') inClass = true;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === '|' && depth === 0) {
      alternatives.push(pattern.slice(start, i));
      start = i + 1;
    }
  }
  alternatives.push(pattern.slice(start));
  return alternatives;
}

/** The index just past the group or class opening at `i`. */
function skipGroupOrClass(source, i) {
  let depth = 0;
  let inClass = false;
  for (; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') i++;
    else if (inClass) {
      if (c === ']') {
        inClass = false;
        if (depth === 0) return i + 1;
      }
    } else if (c === '[') inClass = true;
    else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i + 1;
  }
  return source.length;
}

/**
 * The longest text every string `alternative` (a regular expression without `|` at its top level)
 * matches must contain, or '' when it cannot be read safely. Runs of literal characters at the top
 * level, the scheme aside; a group, a class, `.`, an anchor, a quantifier or a class escape (`\d`)
 * ends a run, a character made optional by `?`, `*` or `{` leaves it, and an escape with operands
 * (`\u00e9`) leaves the alternative unread.
 */
export function requiredText(alternative) {
  let longest = '';
  let run = '';
  const end = () => {
    // The scheme is in nearly every URL: it tells nothing.
    if (run.length > longest.length && !SCHEME.includes(run)) longest = run;
    run = '';
  };
  for (let i = 0; i < alternative.length; ) {
    const c = alternative[i];
    let literal = null;
    let next = i + 1;
    if (c === '\\') {
      const escaped = alternative[i + 1] ?? '';
      if (ESCAPED_LITERAL.test(escaped)) literal = escaped;
      // Escapes with operands (\u00e9, \x41, \k<name>, \p{L}, \12) are not read: no text for the alternative.
      else if (!CLASS_ESCAPE.test(escaped)) return '';
      next = i + 2;
    } else if (c === '(' || c === '[') {
      next = skipGroupOrClass(alternative, i);
    } else if (c === '{') {
      // A quantifier's counts are not text of the URL.
      const close = alternative.indexOf('}', i);
      next = close < 0 ? alternative.length : close + 1;
    } else if (PLAIN_LITERAL.test(c)) {
      literal = c;
    }
    const quantifier = alternative[next];
    if (literal !== null && quantifier !== '?' && quantifier !== '*' && quantifier !== '{') {
      run += literal;
      // After `+` the character may repeat: what follows is not contiguous with the run.
      if (quantifier === '+') end();
    } else {
      end();
    }
    i = next;
  }
  end();
  return longest;
}

/** Per alternative of `pattern`, a text every URL it matches contains; null when any alternative has none worth testing. */
export function requiredTexts(pattern) {
  const texts = topLevelAlternatives(pattern).map(requiredText);
  return texts.every((text) => text.length >= MIN_LITERAL) ? [...new Set(texts)] : null;
}

/**
 * The package's indexed rule set in three parts: `base`, the rule set without its site rules (the
 * strings the generic and frame rules use, the package's index unchanged); `siteTexts`, per site rule
 * the texts of requiredTexts (null: always a candidate); `site`, the site rules and the strings only
 * they use, to be appended to the base's.
 */
export function splitRuleSet(ruleset) {
  const { v, s, r, index } = ruleset;
  const [siteStart, siteEnd] = index.specificRuleRange;
  // The split relies on the package's layout: site rules last, their own strings after the frame rules'.
  if (siteEnd !== r.length || index.genericRuleRange[1] !== siteStart || index.frameStringEnd < index.genericStringEnd) {
    throw new Error('autoconsent compact rules: unexpected layout');
  }
  const baseStrings = index.frameStringEnd;
  return {
    base: { v, s: s.slice(0, baseStrings), r: r.slice(0, siteStart), index },
    siteTexts: r.slice(siteStart).map((rule) => (rule[3] ? requiredTexts(rule[3]) : null)),
    site: { r: r.slice(siteStart), s: s.slice(baseStrings) },
  };
}

/** How many characters of a site text its index keys it by: every text has at least MIN_LITERAL. */
const INDEX_KEY_LENGTH = MIN_LITERAL;

/**
 * The site texts indexed by their first INDEX_KEY_LENGTH characters, so a document finds its
 * candidates (siteRuleCandidates, src/consent/rules.ts) by looking up each place of its URL once, instead of
 * testing each of some 600 texts against the URL: `byKey` holds, per key, the pairs [site rule,
 * text]; `always` the site rules without texts (always candidates).
 */
export function siteTextIndex(siteTexts) {
  const byKey = {};
  const always = [];
  siteTexts.forEach((texts, rule) => {
    if (texts === null) {
      always.push(rule);
      return;
    }
    for (const text of texts) {
      if (text.length < INDEX_KEY_LENGTH) throw new Error(`consent site text shorter than ${INDEX_KEY_LENGTH}: ${text}`);
      const key = text.slice(0, INDEX_KEY_LENGTH);
      if (!Object.hasOwn(byKey, key)) byKey[key] = [];
      byKey[key].push([rule, text]);
    }
  });
  return { keyLength: INDEX_KEY_LENGTH, byKey, always };
}

/** What the module's functions return until the build puts the JSON in their place (withRuleComments). */
const PLACEHOLDERS = { rulesSource: '__PAGE_FETCH_CONSENT_RULES__', gateSource: '__PAGE_FETCH_CONSENT_GATE__' };

/**
 * The source of the module the consent preload imports its part of the rule set from: `rulesSource`
 * and `gateSource`, each returning a placeholder the build replaces with a comment holding JSON
 * (withRuleComments): the base for the first, the site texts' index and the detection probes for
 * the second, which every document reads (the base only a document that may hold a dialog). A document
 * reads it from the function's source text: V8 skips a comment far faster than it scans a string
 * literal of the same length (a 257 KB literal cost a fresh renderer about 5 ms), and JSON.parse is
 * far cheaper than a literal.
 */
export function splitRulesModule() {
  return Object.entries(PLACEHOLDERS)
    .map(([name, placeholder]) => `export function ${name}() { return ${JSON.stringify(placeholder)}; }`)
    .join('\n');
}

/** `code` with the placeholder of `name` replaced by a comment holding `value` as JSON. */
function withComment(code, name, value) {
  const quoted = JSON.stringify(PLACEHOLDERS[name]);
  const at = code.indexOf(quoted);
  if (at < 0 || code.indexOf(quoted, at + 1) >= 0) throw new Error(`consent preload: ${PLACEHOLDERS[name]} not found once`);
  // `*/` can only occur inside a JSON string, where `\/` means `/` as well.
  const json = JSON.stringify(value).replaceAll('*/', '*\\/');
  // The space keeps `return"…"` from becoming `return0`.
  return `${code.slice(0, at)} 0/*${json}*/${code.slice(at + quoted.length)}`;
}

/** The built preload `code` with the placeholders replaced by comments holding the base, and the site texts' index and the probes. */
export function withRuleComments(code, { base, siteIndex, probes }) {
  return withComment(withComment(code, 'rulesSource', { base }), 'gateSource', { siteIndex, probes });
}

/** The keys of a compact step that name an element the step needs (the package's short keys, and the long ones a rule may keep). */
const ELEMENT_KEYS = ['e', 'exists', 'v', 'visible', 'w', 'waitFor', 'wv', 'waitForVisible'];
/** The package finds nothing for these selector kinds (its querySingleReplySelector). */
const NEVER_MATCHING = /^(aria|text|pierce)\//;

/**
 * What a detection step needs of the document, as probes (see detectionProbes), or null when it
 * cannot be told: a step is passed only if every key of it passes, so one key whose need can be
 * told is enough. `any` needs what one of its steps needs.
 */
function stepNeeds(step, strings) {
  if (step.negated || step.if) return null;
  for (const key of ELEMENT_KEYS) {
    if (step[key] === undefined) continue;
    // A visible step checking that none is visible passes without the element.
    if ((key === 'v' || key === 'visible' || key === 'wv' || key === 'waitForVisible') && step.check === 'none') continue;
    const selector = typeof step[key] === 'number' ? strings[step[key]] : step[key];
    // A chain starts in the document with its first selector.
    const first = Array.isArray(selector) ? selector[0] : selector;
    if (typeof first !== 'string') continue;
    if (NEVER_MATCHING.test(first)) return [];
    return [first.startsWith('xpath/') ? { xpath: first.slice(6) } : { selector: first }];
  }
  if (typeof step.eval === 'string') return [{ snippet: step.eval }];
  const cookie = typeof step.cc === 'number' ? strings[step.cc] : step.cookieContains;
  if (typeof cookie === 'string') return [{ cookie }];
  if (Array.isArray(step.any)) {
    const needs = step.any.map((inner) => stepNeeds(inner, strings));
    return needs.some((need) => need === null) ? null : needs.flat();
  }
  return null;
}

/**
 * What the rules of `ruleset` need of a document before any of them can detect its dialog, as
 * probes: a selector or an XPath that matches an element, an evaluation of the package's (a snippet
 * that returns true), a text the cookies hold. A rule detects only if each of its detection steps
 * passes, the optional ones aside, so each rule gives the needs of its first step whose needs can
 * be told. `unprobed` names the rules of which none can be told: a document where such a rule runs
 * is always looked at. Probes are listed once each.
 */
export function detectionProbes(ruleset) {
  const selectors = new Set();
  const xpaths = new Set();
  const snippets = new Set();
  const cookies = new Set();
  const unprobed = [];
  for (const rule of ruleset.r) {
    let needs = null;
    for (const step of rule[6]) {
      if (step.optional) continue;
      needs = stepNeeds(step, ruleset.s);
      if (needs !== null) break;
    }
    if (needs === null) {
      unprobed.push(rule[1]);
      continue;
    }
    for (const need of needs) {
      if (need.selector !== undefined) selectors.add(need.selector);
      else if (need.xpath !== undefined) xpaths.add(need.xpath);
      else if (need.snippet !== undefined) snippets.add(need.snippet);
      else cookies.add(need.cookie);
    }
  }
  return { selectors: [...selectors], xpaths: [...xpaths], snippets: [...snippets], cookies: [...cookies], unprobed };
}
