// Runs inside the page, in an isolated world (its own globals and prototypes, which the page's
// scripts cannot redefine), and returns the page as one string, or null when longer than maxChars.
// Plain JavaScript read as text (the bundler would wrap a bundled function with helpers the page does
// not have). Two forms:
// - 'html': the DOM with doctype; open shadow roots as declarative shadow DOM (<template
//   shadowrootmode>), as Element.getHTML() writes them, so the HTML parses back with its shadow content.
// - 'reader': what a person sees, as plain HTML for the markdown serializer: the composed tree (open
//   shadow roots in place of their host's children, slots filled with what is assigned to them),
//   same-origin and srcdoc iframes' documents where the iframe stands, elements the browser does not
//   render left out (decided by the browser's own style and layout), images with the URL the browser
//   chose (currentSrc, else a lazy-loading data-src). A cross-origin iframe, out of this world's
//   reach, is left as a placeholder naming the key serialize.ts registered for it (in this world's
//   global `pageFetchFrameKeys`), where its own reader form is stitched in.
// - 'reader-frame': the reader form of the body alone, for stitching into the parent's.
(function serializePage(mode, maxChars, maxFrames, maxFrameDepth) {
  const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);
  // Never content: scripts, styles, fallbacks for no scripting, inert templates.
  const SKIP = new Set(['script', 'style', 'noscript', 'template', 'link', 'meta']);
  const TOO_LARGE = new RangeError('too large');

  const doctypeOf = (doc) => (doc.doctype ? new XMLSerializer().serializeToString(doc.doctype) : '');
  const escapeText = (text) =>
    text
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/\u00a0/g, '&nbsp;');
  const escapeAttribute = (value) =>
    value
      .replace(/&/g, '&amp;')
      .replace(/"/g, '&quot;')
      .replace(/\u00a0/g, '&nbsp;');

  /** `<tag attributes>`; `overrides` replaces attributes by name (null drops one). */
  const startTag = (el, overrides = {}) => {
    let out = `<${el.localName}`;
    for (const attr of el.attributes) {
      if (!Object.hasOwn(overrides, attr.name)) out += ` ${attr.name}="${escapeAttribute(attr.value)}"`;
    }
    for (const [name, value] of Object.entries(overrides)) {
      if (value !== null) out += ` ${name}="${escapeAttribute(value)}"`;
    }
    return `${out}>`;
  };

  const openShadowRoots = (root, found) => {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT);
    for (let el = walker.nextNode(); el; el = walker.nextNode()) {
      if (el.shadowRoot) {
        found.push(el.shadowRoot);
        openShadowRoots(el.shadowRoot, found);
      }
    }
    return found;
  };

  const serializeHtml = () => {
    const root = document.documentElement;
    if (!root) return doctypeOf(document);
    const roots = openShadowRoots(root, []);
    if (roots.length === 0) return doctypeOf(document) + root.outerHTML;
    return `${doctypeOf(document)}${startTag(root)}${root.getHTML({ serializableShadowRoots: true, shadowRoots: roots })}</html>`;
  };

  // --- reader form ---
  const styleOf = (el) => el.ownerDocument.defaultView?.getComputedStyle(el) ?? null;
  // Whether the element's subtree can hold anything rendered: false for display:none (itself or an
  // ancestor), content-visibility:hidden. Inside a closed <details> nothing is laid out, so style alone
  // decides there.
  const rendersSubtree = (el, inClosedDetails) => {
    if (inClosedDetails) return styleOf(el)?.display !== 'none';
    if (el.checkVisibility()) return true;
    // Reached only under rendered ancestors, so a box-less display:contents element passes on.
    return styleOf(el)?.display === 'contents';
  };
  // Whether the element's own text shows (visibility:hidden hides it, but a child may show again).
  const showsText = (el) => {
    const style = styleOf(el);
    return style === null || style.visibility === 'visible';
  };
  const imageSource = (img) => {
    const current = img.currentSrc;
    if (current && !current.startsWith('data:')) return current;
    const lazy = img.getAttribute('data-src') || img.getAttribute('data-lazy-src') || img.getAttribute('data-original');
    if (lazy) {
      try {
        return new URL(lazy, img.baseURI).href;
      } catch {
        return lazy;
      }
    }
    return img.getAttribute('src') === null ? null : img.src;
  };
  const childrenOf = (node) => {
    if (node.localName === 'slot') {
      const assigned = node.assignedNodes({ flatten: true });
      return assigned.length > 0 ? assigned : [...node.childNodes];
    }
    return [...(node.shadowRoot ?? node).childNodes];
  };
  const frameDocument = (frame) => {
    try {
      return frame.contentDocument;
    } catch {
      return null;
    }
  };

  const serializeReader = () => {
    const out = [];
    let size = 0;
    let frames = 0;
    const emit = (text) => {
      out.push(text);
      size += text.length;
      if (size > maxChars) throw TOO_LARGE;
    };
    // An explicit stack, not recursion: a hostile page can nest elements as deep as it likes.
    // Entries: { node, closed, textShows, depth } or a closing tag to write.
    const walk = (start) => {
      const stack = [{ node: start, closed: false, textShows: true, depth: 0 }];
      while (stack.length > 0) {
        const entry = stack.pop();
        if (typeof entry === 'string') {
          emit(entry);
          continue;
        }
        const { node, closed, depth } = entry;
        if (node.nodeType === Node.TEXT_NODE || node.nodeType === Node.CDATA_SECTION_NODE) {
          if (entry.textShows) emit(escapeText(node.data));
          continue;
        }
        if (node.nodeType !== Node.ELEMENT_NODE) continue;
        const tag = node.localName;
        if (SKIP.has(tag) || !rendersSubtree(node, closed)) continue;
        if (tag === 'iframe' || tag === 'frame') {
          if (depth >= maxFrameDepth || frames >= maxFrames) continue;
          const inner = frameDocument(node);
          const remoteKey = globalThis.pageFetchFrameKeys?.get(node);
          if (inner?.body) {
            frames++;
            emit('<div data-page-fetch-frame="">');
            stack.push('</div>', { node: inner.body, closed: false, textShows: true, depth: depth + 1 });
          } else if (inner === null && remoteKey !== undefined) {
            frames++;
            emit(`<div data-page-fetch-remote-frame="${remoteKey}"></div>`);
          }
          continue;
        }
        if (tag === 'img') {
          emit(startTag(node, { src: imageSource(node), srcset: null, 'data-src': null }));
          continue;
        }
        const isSlot = tag === 'slot';
        if (!isSlot) emit(startTag(node));
        if (VOID.has(tag)) continue;
        if (!isSlot) stack.push(`</${tag}>`);
        // A closed <details> shows its <summary> only, but the rest is still content (DESIGN).
        const closesContent = tag === 'details' && !node.open;
        const textShows = showsText(node);
        const children = childrenOf(node);
        for (let i = children.length - 1; i >= 0; i--) {
          const child = children[i];
          stack.push({ node: child, closed: closed || (closesContent && child.localName !== 'summary'), textShows, depth });
        }
      }
    };
    if (mode === 'reader-frame') {
      if (document.body) walk(document.body);
      return out.join('');
    }
    const root = document.documentElement;
    const lang = root?.getAttribute('lang');
    emit(`${doctypeOf(document)}<html${lang ? ` lang="${escapeAttribute(lang)}"` : ''}><head>`);
    const base = document.querySelector('base[href]');
    if (base) emit(`<base href="${escapeAttribute(base.href)}">`);
    if (document.title) emit(`<title>${escapeText(document.title)}</title>`);
    emit('</head>');
    if (document.body) walk(document.body);
    else emit('<body></body>');
    emit('</html>');
    return out.join('');
  };

  try {
    const result = mode === 'html' ? serializeHtml() : serializeReader();
    return result.length > maxChars ? null : result;
  } catch (error) {
    if (error === TOO_LARGE) return null;
    throw error;
  }
});
