// Fixture pages behind cookie-consent dialogs, each with the markup and script API of a real consent
// platform as its rules in @duckduckgo/autoconsent know it (OneTrust, Cookiebot, Didomi, Quantcast,
// Usercentrics in its shadow root, a Sourcepoint-style dialog in a cross-origin frame). Every choice a dialog is
// given is recorded at /consent/record?cmp=…&choice=reject|accept&id=… (the page's own ?id=), so a
// test can tell that the decline path was taken, and never accept; the dialog then closes, and a
// cookie keeps it closed, as the platforms do. Served by fixture-server.ts.
import type { IncomingMessage, ServerResponse } from 'node:http';

type Handler = (url: URL, req: IncomingMessage, res: ServerResponse) => void;

export const ARTICLE_TEXT = 'The harbour wall was rebuilt in 1862 after the great storm.';

/** Each platform's fixture (its path under /consent/) and a phrase of its dialog's text. */
export const CONSENT_PLATFORMS: [string, string][] = [
  ['onetrust', 'OneTrust dialog'],
  ['cookiebot', 'Cookiebot dialog'],
  ['didomi', 'Didomi dialog'],
  ['quantcast', 'Quantcast dialog'],
  ['usercentrics', 'Usercentrics dialog'],
  ['sourcepoint', 'Sourcepoint dialog'],
];

function html(res: ServerResponse, body: string) {
  res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(body);
}

/** A page: the article, the dialog markup, and the script that answers its buttons. */
function consentPage(cmp: string, dialog: string, script: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Harbour news (${cmp})</title></head><body>
<main><h1>Harbour news</h1><p>${ARTICLE_TEXT}</p><p>Fishing boats still land their catch there every morning.</p></main>
${dialog}
<script>
  const id = new URLSearchParams(location.search).get('id') || '';
  const record = (choice) => fetch('/consent/record?cmp=${cmp}&choice=' + choice + '&id=' + encodeURIComponent(id));
  const answered = document.cookie.includes('consent-${cmp}=');
  const remember = (choice) => { document.cookie = 'consent-${cmp}=' + choice + '; path=/'; };
  ${script}
</script></body></html>`;
}

const FIXED = 'position: fixed; left: 0; right: 0; bottom: 0; padding: 20px; background: #fff; border-top: 1px solid #000; z-index: 10';

const DIDOMI_DIALOG = `<div id="didomi-host"><div id="didomi-notice" class="didomi-notice-banner" style="${FIXED}">
  <p>Didomi dialog: with your agreement, we and our partners use cookies.</p>
  <button id="didomi-notice-agree-button">Agree and close</button>
  <button id="didomi-notice-disagree-button">Decline</button>
</div></div>`;

const DIDOMI_SCRIPT = `const notice = document.getElementById('didomi-notice');
  const close = (choice) => { record(choice); remember(choice); notice.remove(); };
  window.Didomi = { setUserDisagreeToAll: () => close('reject'), setUserAgreeToAll: () => close('accept'), getCurrentUserStatus: () => ({ purposes: { ads: { enabled: false } } }) };
  if (answered) notice.remove();
  document.getElementById('didomi-notice-disagree-button').onclick = () => close('reject');
  document.getElementById('didomi-notice-agree-button').onclick = () => close('accept');`;

/**
 * A page that loads the machine it renders on: a large DOM (4,000 rows of a table) and a script that
 * keeps its main thread busy in 40 ms slices for 3 s, with a request held 1.5 s so the network is
 * not idle at once. What other renders of a busy machine look like to a consent dialog's page.
 */
function heavyPage(): string {
  const rows = Array.from(
    { length: 4000 },
    (_, i) => `<tr><td>Row ${i}</td><td><a href="#r${i}">entry ${i}</a></td><td>${i * 7}</td></tr>`,
  );
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Heavy page</title></head><body>
<h1>Heavy page</h1><table>${rows.join('')}</table>
<script>
  fetch('/delay?ms=1500');
  const end = Date.now() + 3000;
  const spin = () => { const until = Date.now() + 40; while (Date.now() < until) {} if (Date.now() < end) setTimeout(spin, 5); };
  spin();
</script></body></html>`;
}

export const consentRoutes: Record<string, Handler> = {
  '/consent/heavy': (_url, _req, res) => html(res, heavyPage()),

  // ?hold=ms: answered that much later, as a platform's server on a slow day.
  '/consent/record': (url, _req, res) => {
    const hold = Math.min(Number(url.searchParams.get('hold')) || 0, 10_000);
    setTimeout(() => {
      res.writeHead(204, { 'Cache-Control': 'no-store' });
      res.end();
    }, hold);
  },

  '/consent/onetrust': (_url, _req, res) =>
    html(
      res,
      consentPage(
        'onetrust',
        `<div id="onetrust-consent-sdk"><div id="onetrust-banner-sdk" class="otFlat" role="region" style="${FIXED}">
  <p id="onetrust-policy-text">OneTrust dialog: we and our 842 partners store cookies to personalise ads.</p>
  <button id="onetrust-pc-btn-handler">Cookie Settings</button>
  <button id="onetrust-reject-all-handler">Reject All</button>
  <button id="onetrust-accept-btn-handler">Accept All Cookies</button>
</div></div>`,
        `window.OnetrustActiveGroups = ',C0001,';
  const banner = document.getElementById('onetrust-banner-sdk');
  if (answered) banner.style.display = 'none';
  const choose = (choice) => () => { record(choice); remember(choice); banner.style.display = 'none'; };
  document.getElementById('onetrust-reject-all-handler').onclick = choose('reject');
  document.getElementById('onetrust-accept-btn-handler').onclick = choose('accept');`,
      ),
    ),

  // Quantcast Choice: the summary's secondary buttons are "More options" and "Disagree", the primary "Agree".
  '/consent/quantcast': (_url, _req, res) =>
    html(
      res,
      consentPage(
        'quantcast',
        `<div id="qc-cmp2-container"><div id="qc-cmp2-main" class="qc-cmp2-main"><div id="qc-cmp2-ui" role="dialog" style="${FIXED}">
  <p>Quantcast dialog: we value your privacy and process personal data with our partners.</p>
  <div class="qc-cmp2-summary-buttons">
    <button mode="secondary">More options</button>
    <button mode="secondary">Disagree</button>
    <button mode="primary">Agree</button>
  </div>
</div></div></div>`,
        `const ui = document.getElementById('qc-cmp2-ui');
  const close = (choice) => () => { record(choice); remember(choice); ui.remove(); };
  if (answered) ui.remove();
  const [more, disagree, agree] = ui.querySelectorAll('.qc-cmp2-summary-buttons > button');
  more.onclick = () => record('options');
  disagree.onclick = close('reject');
  agree.onclick = close('accept');`,
      ),
    ),

  '/consent/cookiebot': (_url, _req, res) =>
    html(
      res,
      consentPage(
        'cookiebot',
        `<div id="CybotCookiebotDialog" role="dialog" style="${FIXED}">
  <p>Cookiebot dialog: this website uses cookies for statistics and marketing.</p>
  <button id="CybotCookiebotDialogBodyLevelButtonLevelOptinAllowAll">Allow all</button>
  <button id="CybotCookiebotDialogBodyLevelButtonLevelOptinDeclineAll">Deny</button>
</div>`,
        `const dialog = document.getElementById('CybotCookiebotDialog');
  const close = (choice) => { record(choice); remember(choice); window.Cookiebot.hasResponse = true; window.Cookiebot.declined = choice === 'reject'; window.Cookiebot.dialog.visible = false; dialog.style.display = 'none'; };
  window.Cookiebot = { hasResponse: answered, declined: false, dialog: { visible: !answered }, withdraw: () => close('reject'), hide: () => { dialog.style.display = 'none'; } };
  if (answered) dialog.style.display = 'none';
  document.getElementById('CybotCookiebotDialogBodyLevelButtonLevelOptinDeclineAll').onclick = () => close('reject');
  document.getElementById('CybotCookiebotDialogBodyLevelButtonLevelOptinAllowAll').onclick = () => close('accept');`,
      ),
    ),

  '/consent/didomi': (_url, _req, res) => html(res, consentPage('didomi', DIDOMI_DIALOG, DIDOMI_SCRIPT)),

  // The same dialog drawn 800 ms after the page loaded, after the consent engine's first look for
  // one; a request held 2.5 s keeps the page from going network-idle meanwhile.
  '/consent/didomi-late': (_url, _req, res) =>
    html(
      res,
      consentPage(
        'didomi',
        '',
        `fetch('/delay?ms=2500');
  setTimeout(() => {
    document.body.insertAdjacentHTML('beforeend', ${JSON.stringify(DIDOMI_DIALOG)});
    ${DIDOMI_SCRIPT}
  }, 800);`,
      ),
    ),

  // Usercentrics draws its dialog inside an open shadow root of #usercentrics-root.
  '/consent/usercentrics': (_url, _req, res) =>
    html(
      res,
      consentPage(
        'usercentrics',
        `<div id="usercentrics-root" style="${FIXED}"></div>`,
        `const host = document.getElementById('usercentrics-root');
  const root = host.attachShadow({ mode: 'open' });
  root.innerHTML = '<div data-testid="uc-container"><p>Usercentrics dialog: we use technologies to process your data.</p>' +
    '<button data-testid="uc-deny-all-button">Deny</button><button data-testid="uc-accept-all-button">Accept All</button></div>';
  const close = (choice) => { record(choice); remember(choice); host.style.display = 'none'; return true; };
  window.UC_UI = { denyAllConsents: () => close('reject'), acceptAllConsents: () => close('accept'), closeCMP: () => true, areAllConsentsAccepted: () => false };
  if (answered) host.style.display = 'none';
  root.querySelector('[data-testid=uc-deny-all-button]').onclick = () => close('reject');
  root.querySelector('[data-testid=uc-accept-all-button]').onclick = () => close('accept');`,
      ),
    ),

  // Sourcepoint: the dialog is a cross-origin frame (the other host name of this server) whose
  // buttons tell the page, which then closes the frame's container.
  '/consent/sourcepoint': (url, req, res) => {
    const port = (req.headers.host ?? '').split(':')[1] ?? '';
    const id = encodeURIComponent(url.searchParams.get('id') ?? '');
    // ?long=1: the frame's URL holds a site rule's text and runs past 16 KB, so the Durable Object
    // refuses its request for rules and the frame runs the rules it carries.
    const long = url.searchParams.has('long') ? `&from=dropbox.com/&pad=${'x'.repeat(17 * 1024)}` : '';
    // ?hold=ms: the frame's record of the choice is answered that much later, and the page closes
    // the dialog only then (the frame tells it once the record is sent).
    const hold = /^\d+$/.test(url.searchParams.get('hold') ?? '') ? `&hold=${url.searchParams.get('hold')}` : '';
    html(
      res,
      consentPage(
        'sourcepoint',
        `<div id="sp_message_container_1234" class="sp-message-container" style="${FIXED}">
  <iframe id="sp_message_iframe_1234" title="SP Consent Message" style="width: 600px; height: 220px; border: 0"
    src="http://localhost:${port}/index.html?message_id=1234${hold}&id=${id}${long}"></iframe>
</div>`,
        `const container = document.getElementById('sp_message_container_1234');
  if (answered) container.remove();
  addEventListener('message', (event) => {
    if (event.data && event.data.spChoice) { remember(event.data.spChoice); container.remove(); }
  });`,
      ),
    );
  },
  // A consent frame on the other host name taken out of the page while a request of its own is
  // still open (a request that never answers): the page goes network-idle once the frame is gone.
  '/consent/frame-removed': (_url, req, res) => {
    const port = (req.headers.host ?? '').split(':')[1] ?? '';
    html(
      res,
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Harbour news</title></head><body>
<main><h1>Harbour news</h1><p>${ARTICLE_TEXT}</p></main>
<iframe id="choice-frame" src="http://localhost:${port}/consent/frame-removed-inner"></iframe>
<script>addEventListener('message', (event) => { if (event.data === 'sent') document.getElementById('choice-frame').remove(); });</script>
</body></html>`,
    );
  },
  '/consent/frame-removed-inner': (_url, _req, res) =>
    html(
      res,
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Choice</title></head><body><p>Sending the choice.</p>
<script>fetch('/hang'); setTimeout(() => parent.postMessage('sent', '*'), 300);</script></body></html>`,
    ),

  // Sourcepoint's message frame, at the path its rules know.
  '/index.html': (url, _req, res) => {
    const id = encodeURIComponent(url.searchParams.get('id') ?? '');
    const hold = /^\d+$/.test(url.searchParams.get('hold') ?? '') ? `&hold=${url.searchParams.get('hold')}` : '';
    html(
      res,
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>SP Consent Message</title></head><body>
<p>Sourcepoint dialog: we and our partners process personal data.</p>
<button class="message-component message-button no-children focusable sp_choice_type_12" title="Options">Options</button>
<button class="message-component message-button no-children focusable sp_choice_type_13" title="Reject">Reject</button>
<button class="message-component message-button no-children focusable sp_choice_type_11" title="Accept">Accept</button>
<script>
  const choose = (choice) => () => {
    fetch('/consent/record?cmp=sourcepoint&choice=' + choice + '${hold}&id=${id}').finally(() => parent.postMessage({ spChoice: choice }, '*'));
  };
  document.querySelector('.sp_choice_type_13').onclick = choose('reject');
  document.querySelector('.sp_choice_type_11').onclick = choose('accept');
</script></body></html>`,
    );
  },
};
