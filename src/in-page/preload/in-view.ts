// Runs in every frame's main world before the page's own scripts (Page.addScriptToEvaluateOnNewDocument,
// installed by page-setup.ts), so that lazy loaders see every element as in view (docs/api.md "Waiting"),
// without scrolling and without changing the viewport:
// - IntersectionObserver: observe() of an element is answered with one entry saying it is wholly in
//   view (ratio 1, whatever the thresholds, root or margin). The browser's own observer still runs
//   underneath, minus its first entry for that target (the one the in-view entry stands for), so
//   later real changes (a scroll step bringing a feed's sentinel into view again) still reach the
//   page. An element stays in view while some observer told so still watches it: every observer that
//   starts watching it meanwhile is told too (an impression tracker that watches every image first
//   does not keep the lazy loader from being told). Once nobody told watches it any more, it is not
//   reported again: a feed that observes its sentinel again after each batch (with the same observer
//   or a new one) would otherwise load batch after batch without a scroll, until the budget ran out.
// - loading="lazy" images and iframes are loaded at once: switched to eager (which starts a deferred
//   load) and switched back a moment later, so the DOM read at the end is the page's own.
// Page scripts that look at the global see an IntersectionObserver; nothing else changes.

function inViewEntry(target: Element): IntersectionObserverEntry {
  const box = target.getBoundingClientRect();
  const viewport = new DOMRectReadOnly(0, 0, window.innerWidth, window.innerHeight);
  const own = (value: unknown) => ({ value, enumerable: true });
  // Own data properties over the real prototype: `instanceof IntersectionObserverEntry` holds.
  return Object.create(IntersectionObserverEntry.prototype, {
    time: own(performance.now()),
    target: own(target),
    rootBounds: own(viewport),
    boundingClientRect: own(box),
    intersectionRect: own(box),
    isIntersecting: own(true),
    intersectionRatio: own(1),
    isVisible: own(true),
  }) as IntersectionObserverEntry;
}

function installInViewObserver(): void {
  const Native = window.IntersectionObserver;
  if (typeof Native !== 'function') return;
  /** Elements reported in view at least once. */
  const reported = new WeakSet<Element>();
  /** How many observers told an element is in view still watch it. */
  const watchers = new WeakMap<Element, number>();
  const watch = (target: Element, by: number) => watchers.set(target, (watchers.get(target) ?? 0) + by);

  class InViewObserver extends Native {
    /** Targets whose in-view entry is still to be delivered. */
    #queued = new Set<Element>();
    /** Targets whose first native entry is still to come (and to be dropped). */
    #unseen = new Set<Element>();
    /** Targets this observer was told are in view, while it watches them. */
    #told = new Set<Element>();
    readonly #callback: IntersectionObserverCallback;

    constructor(callback: IntersectionObserverCallback, options?: IntersectionObserverInit) {
      super((entries, observer) => {
        const kept = (observer as InViewObserver).#keep(entries);
        if (kept.length > 0) callback.call(observer, kept, observer);
      }, options);
      this.#callback = callback;
    }

    #keep(entries: IntersectionObserverEntry[]): IntersectionObserverEntry[] {
      return entries.filter((entry) => !this.#unseen.delete(entry.target));
    }

    override observe(target: Element): void {
      super.observe(target);
      if (this.#told.has(target) || (reported.has(target) && (watchers.get(target) ?? 0) === 0)) return;
      reported.add(target);
      this.#told.add(target);
      watch(target, 1);
      this.#unseen.add(target);
      if (this.#queued.size === 0) setTimeout(() => this.#deliver(), 0);
      this.#queued.add(target);
    }

    #deliver(): void {
      const entries = [...this.#queued].map(inViewEntry);
      this.#queued.clear();
      if (entries.length > 0) this.#callback.call(this, entries, this);
    }

    override unobserve(target: Element): void {
      this.#queued.delete(target);
      this.#unseen.delete(target);
      if (this.#told.delete(target)) watch(target, -1);
      super.unobserve(target);
    }

    override disconnect(): void {
      this.#queued.clear();
      this.#unseen.clear();
      for (const target of this.#told) watch(target, -1);
      this.#told.clear();
      super.disconnect();
    }

    override takeRecords(): IntersectionObserverEntry[] {
      return this.#keep(super.takeRecords());
    }
  }
  Object.defineProperty(InViewObserver, 'name', { value: 'IntersectionObserver' });
  window.IntersectionObserver = InViewObserver;
}

const LAZY = 'img[loading="lazy" i], iframe[loading="lazy" i]';

function loadNow(element: Element): void {
  const declared = element.getAttribute('loading');
  element.setAttribute('loading', 'eager');
  // Once started, a load is not deferred again: the attribute goes back to what the page wrote.
  setTimeout(() => {
    if (element.getAttribute('loading') === 'eager' && declared !== null) element.setAttribute('loading', declared);
  }, 0);
}

function loadLazyElementsNow(): void {
  const loadUnder = (node: Node) => {
    if (!(node instanceof Element)) return;
    if (node.matches(LAZY)) loadNow(node);
    if (node.firstElementChild !== null) for (const element of node.querySelectorAll(LAZY)) loadNow(element);
  };
  // The parser's own elements at once when it is done, the ones scripts add later as they come.
  document.addEventListener('DOMContentLoaded', () => {
    loadUnder(document.documentElement);
    new MutationObserver((records) => {
      for (const record of records) for (const node of record.addedNodes) loadUnder(node);
    }).observe(document, { childList: true, subtree: true });
  });
}

try {
  installInViewObserver();
  loadLazyElementsNow();
} catch {
  // A document this cannot run in (no DOM globals) loads as it would.
}
