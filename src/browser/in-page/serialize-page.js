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
//   chose (currentSrc, else a lazy-loading data-src).
(function serializePage(mode, maxChars, maxFrames, maxFrameDepth) {
  // biome-ignore lint/suspicious/noRedundantUseStrict: the page runs this as a classic script, not a module.
  'use strict';
  var VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);
  // Never content: scripts, styles, fallbacks for no scripting, inert templates.
  var SKIP = new Set(['script', 'style', 'noscript', 'template', 'link', 'meta']);

  function doctypeOf(doc) {
    return doc.doctype ? new XMLSerializer().serializeToString(doc.doctype) : '';
  }
  function escapeText(text) {
    return text
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/\u00a0/g, '&nbsp;');
  }
  function escapeAttribute(value) {
    return value
      .replace(/&/g, '&amp;')
      .replace(/"/g, '&quot;')
      .replace(/\u00a0/g, '&nbsp;');
  }
  function startTag(el, overrides) {
    var out = '<' + el.localName;
    for (var i = 0; i < el.attributes.length; i++) {
      var attr = el.attributes[i];
      if (overrides && Object.prototype.hasOwnProperty.call(overrides, attr.name)) continue;
      out += ' ' + attr.name + '="' + escapeAttribute(attr.value) + '"';
    }
    if (overrides) {
      for (var name in overrides) if (overrides[name] !== null) out += ' ' + name + '="' + escapeAttribute(overrides[name]) + '"';
    }
    return out + '>';
  }

  function openShadowRoots(root, found) {
    var walker = root.ownerDocument
      ? root.ownerDocument.createTreeWalker(root, NodeFilter.SHOW_ELEMENT)
      : document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT);
    for (var el = walker.nextNode(); el; el = walker.nextNode()) {
      if (el.shadowRoot) {
        found.push(el.shadowRoot);
        openShadowRoots(el.shadowRoot, found);
      }
    }
    return found;
  }

  function serializeHtml() {
    var root = document.documentElement;
    if (!root) return doctypeOf(document);
    var roots = openShadowRoots(root, []);
    if (roots.length === 0) return doctypeOf(document) + root.outerHTML;
    return doctypeOf(document) + startTag(root) + root.getHTML({ serializableShadowRoots: true, shadowRoots: roots }) + '</html>';
  }

  // --- reader form ---
  var frames = 0;
  var style = function (el) {
    return el.ownerDocument.defaultView ? el.ownerDocument.defaultView.getComputedStyle(el) : null;
  };
  // Whether the element's subtree can hold anything rendered: false for display:none (itself or an
  // ancestor), content-visibility:hidden. display:contents has no box of its own but its children do.
  function rendersSubtree(el, inClosedDetails) {
    if (inClosedDetails) {
      var s = style(el);
      return !s || s.display !== 'none';
    }
    if (el.checkVisibility()) return true;
    // Reached only under rendered ancestors, so a box-less display:contents element passes on.
    var computed = style(el);
    return computed !== null && computed.display === 'contents';
  }
  // Whether the element's own text shows (visibility:hidden hides it, but a child may show again).
  function showsText(el) {
    var s = style(el);
    return !s || s.visibility === 'visible';
  }
  function imageSource(img) {
    var current = img.currentSrc;
    if (current && current.indexOf('data:') !== 0) return current;
    var lazy = img.getAttribute('data-src') || img.getAttribute('data-lazy-src') || img.getAttribute('data-original');
    if (lazy) {
      try {
        return new URL(lazy, img.baseURI).href;
      } catch (e) {
        return lazy;
      }
    }
    return img.getAttribute('src') === null ? null : img.src;
  }
  function childrenOf(node) {
    if (node.localName === 'slot') {
      var assigned = node.assignedNodes({ flatten: true });
      return assigned.length > 0 ? assigned : Array.prototype.slice.call(node.childNodes);
    }
    var host = node.shadowRoot;
    return Array.prototype.slice.call((host || node).childNodes);
  }

  function serializeReader() {
    var out = [];
    var size = 0;
    function emit(text) {
      out.push(text);
      size += text.length;
      if (size > maxChars) throw new RangeError('too large');
    }
    // An explicit stack, not recursion: a hostile page can nest elements as deep as it likes.
    // Entries: [node, inClosedDetails, textShows, frameDepth] or a closing tag string.
    function walk(start, frameDepth) {
      var stack = [[start, false, true, frameDepth]];
      while (stack.length > 0) {
        var entry = stack.pop();
        if (typeof entry === 'string') {
          emit(entry);
          continue;
        }
        var node = entry[0];
        var closed = entry[1];
        var depth = entry[3];
        if (node.nodeType === 3 || node.nodeType === 4) {
          if (entry[2]) emit(escapeText(node.data));
          continue;
        }
        if (node.nodeType !== 1) continue;
        var tag = node.localName;
        if (SKIP.has(tag) || !rendersSubtree(node, closed)) continue;
        var textShows = showsText(node);
        if (tag === 'iframe' || tag === 'frame') {
          var inner = null;
          try {
            inner = node.contentDocument;
          } catch (e) {
            inner = null;
          }
          if (inner && inner.body && depth < maxFrameDepth && frames < maxFrames) {
            frames++;
            emit('<div data-page-fetch-frame="">');
            stack.push('</div>');
            stack.push([inner.body, false, true, depth + 1]);
          }
          continue;
        }
        if (tag === 'img') {
          var src = imageSource(node);
          emit(startTag(node, { src: src, srcset: null, 'data-src': null }));
          continue;
        }
        var isSlot = tag === 'slot';
        if (!isSlot) emit(startTag(node));
        if (VOID.has(tag)) continue;
        if (!isSlot) stack.push('</' + tag + '>');
        // A closed <details> shows its <summary> only, but the rest is still content (DESIGN), judged
        // by style alone since the browser lays none of it out.
        var closesContent = tag === 'details' && !node.open;
        var children = childrenOf(node);
        for (var i = children.length - 1; i >= 0; i--) {
          var child = children[i];
          stack.push([child, closed || (closesContent && child.localName !== 'summary'), textShows, depth]);
        }
      }
    }
    var doc = document;
    emit(doctypeOf(doc) + '<html');
    if (doc.documentElement && doc.documentElement.getAttribute('lang'))
      emit(' lang="' + escapeAttribute(doc.documentElement.getAttribute('lang')) + '"');
    emit('><head>');
    var base = doc.querySelector('base[href]');
    if (base) emit('<base href="' + escapeAttribute(base.href) + '">');
    if (doc.title) emit('<title>' + escapeText(doc.title) + '</title>');
    emit('</head>');
    if (doc.body) walk(doc.body, 0);
    else emit('<body></body>');
    emit('</html>');
    return out.join('');
  }

  try {
    var result = mode === 'html' ? serializeHtml() : serializeReader();
    return result.length > maxChars ? null : result;
  } catch (e) {
    if (e instanceof RangeError && e.message === 'too large') return null;
    throw e;
  }
});
