// DOM helpers the playground's scripts share (app.js, crawl.js).

/** @param {string} id */
export const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

/**
 * Fills a <dl> with a term and its value per item, as text.
 * @param {HTMLElement} list
 * @param {string[][]} items
 */
export function fillTerms(list, items) {
  list.replaceChildren();
  for (const [term, value] of items) {
    const wrapper = document.createElement('div');
    const dt = document.createElement('dt');
    dt.textContent = term ?? '';
    const dd = document.createElement('dd');
    dd.textContent = value ?? '';
    wrapper.append(dt, dd);
    list.append(wrapper);
  }
}
