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

/**
 * Whether a form's URL and the API token are both filled; when one is empty, says which in
 * `progress` and puts the focus on it.
 * @param {{ url: string, urlInput: HTMLElement, urlPrompt: string, token: HTMLInputElement, progress: HTMLElement }} form
 */
export function formFilled({ url, urlInput, urlPrompt, token, progress }) {
  if (url !== '' && token.value !== '') return true;
  progress.textContent = url === '' ? urlPrompt : 'Enter your API token.';
  (url === '' ? urlInput : token).focus();
  return false;
}
