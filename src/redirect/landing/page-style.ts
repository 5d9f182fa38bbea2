import { createHash } from 'node:crypto';

/**
 * The one stylesheet of every landing page, inlined (no request for it, nothing third-party).
 * Mobile first: one column from 320 px up, a centred card on wider screens. System fonts, light and
 * dark colour schemes whose text and controls keep WCAG AA contrast (4.5:1 for text, 3:1 for
 * borders and focus rings), and tap targets at least 44 px high. Compact enough that every page's
 * primary action (a page without one: the whole page, but for very long contents) fits one 390×844
 * phone screen without scrolling (test/landing-pages.e2e-spec.ts; screenshots in test/visual/landing-fold/).
 */
export const PAGE_STYLE = [
  ':root{color-scheme:light dark;--bg:#f1f3f6;--card:#fff;--text:#111827;--muted:#4b5563;--line:#d9dde3;--accent:#1d4ed8;--on-accent:#fff;',
  '--soft:#e8eefc;--field:#f6f7f9}',
  '@media (prefers-color-scheme:dark){:root{--bg:#0b0f17;--card:#161b26;--text:#f3f4f6;--muted:#a9b2c1;--line:#323b4d;--accent:#8ab4ff;',
  '--on-accent:#0b1220;--soft:#1f2b45;--field:#0f141e}}',
  '*{box-sizing:border-box}',
  'html{-webkit-text-size-adjust:100%;text-size-adjust:100%}',
  'body{margin:0;min-height:100vh;padding:12px 12px 24px;background:var(--bg);color:var(--text);',
  'font:1rem/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","Helvetica Neue",Arial,sans-serif}',
  'main{max-width:30rem;margin:0 auto;padding:22px 18px 20px;background:var(--card);border-radius:20px;',
  'box-shadow:0 1px 2px rgba(0,0,0,.06),0 8px 28px rgba(0,0,0,.07)}',
  '@media (min-width:600px){body{padding-top:8vh}main{padding:36px 32px 28px}}',
  'header{text-align:center}',
  '.badge{display:flex;flex-direction:column;align-items:center;justify-content:center;width:64px;height:64px;margin:0 auto 10px;border-radius:50%;',
  'background:var(--soft);color:var(--accent);font-size:1.75rem;font-weight:650;line-height:1}',
  '.badge svg{width:32px;height:32px;fill:none;stroke:currentColor;stroke-width:1.8;stroke-linecap:round;stroke-linejoin:round}',
  '.badge small{font-size:.75rem;font-weight:700;text-transform:uppercase;letter-spacing:.08em}',
  '.kind{margin:0;color:var(--muted);font-size:.8125rem;font-weight:650;letter-spacing:.07em;text-transform:uppercase}',
  'h1{margin:4px 0;font-size:1.625rem;line-height:1.25;overflow-wrap:anywhere}',
  '.sub{margin:0;color:var(--muted);overflow-wrap:anywhere}',
  '.actions{display:grid;gap:10px;margin:22px 0 0}',
  '.pair{display:grid;grid-template-columns:1fr 1fr;gap:10px}',
  '.button{display:flex;align-items:center;justify-content:center;gap:8px;min-height:48px;padding:10px 18px;border:2px solid var(--accent);',
  'border-radius:12px;font-weight:650;text-align:center;text-decoration:none;overflow-wrap:anywhere}',
  '.button svg{flex:none;width:20px;height:20px;fill:none;stroke:currentColor;stroke-width:2;stroke-linecap:round;stroke-linejoin:round}',
  '.primary{background:var(--accent);color:var(--on-accent)}',
  '.secondary{background:transparent;color:var(--accent)}',
  'button.button{width:100%;font:inherit;font-weight:650;cursor:pointer}',
  'a:focus-visible,input:focus-visible,textarea:focus-visible,button:focus-visible{outline:3px solid var(--accent);outline-offset:2px}',
  '.rows{list-style:none;margin:22px 0 0;padding:0;border-top:1px solid var(--line)}',
  '.row{display:block;min-height:44px;padding:10px 4px;border-bottom:1px solid var(--line);color:inherit;text-decoration:none}',
  '.label{display:block;color:var(--muted);font-size:.8125rem}',
  '.value{display:block;overflow-wrap:anywhere;white-space:pre-line}',
  'a.row .value,.value a,.text a{color:var(--accent);text-decoration:underline;text-underline-offset:2px}',
  '.field{margin:22px 0 0;text-align:left}',
  '.field label{display:block;margin:0 0 6px;color:var(--muted);font-size:.8125rem}',
  'input,textarea{display:block;width:100%;min-height:48px;margin:0;padding:10px 12px;border:1px solid var(--muted);border-radius:10px;',
  'background:var(--field);color:var(--text);font:inherit;font-size:1.0625rem;resize:none;-webkit-user-select:text;user-select:text}',
  '.secret{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;letter-spacing:.02em}',
  '.hint{margin:6px 0 0;color:var(--muted);font-size:.875rem}',
  '.text{margin:18px 0 0;font-size:1.125rem;white-space:pre-wrap;overflow-wrap:anywhere;text-align:left}',
  '.bubble{margin:18px 0 0;padding:12px 14px;border-radius:16px 16px 16px 4px;background:var(--soft);white-space:pre-wrap;overflow-wrap:anywhere;',
  'text-align:left}',
  'figure{margin:18px 0 0;text-align:center}',
  '.qr{display:inline-block;padding:8px;border-radius:12px;background:#fff;line-height:0}',
  '.qr svg{width:184px;height:184px}',
  'figcaption{margin:8px 0 0;color:var(--muted);font-size:.875rem}',
  '.steps{margin:22px 0 0;padding:0 0 0 1.25rem;text-align:left}',
  '.steps li{margin:6px 0}',
  '.message{margin:12px 0 0;color:var(--muted);text-align:center}',
].join('');

const STYLE_HASH = createHash('sha256').update(PAGE_STYLE).digest('base64');

/**
 * Served with every landing page: nothing may load from anywhere, no script may run, and the one
 * style allowed is the page's own stylesheet, by hash (not 'unsafe-inline').
 */
export const PAGE_CSP = `default-src 'none'; style-src 'sha256-${STYLE_HASH}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

/**
 * The password page's: the same, except that its form may be sent. The form posts to the page's own
 * origin; `http: https:` are for what follows: Chromium checks form-action on every redirect of the
 * form's navigation, and a right password's 303 back to the link leads on to the link's target, on
 * another origin ('self' alone aborts it). The form's action is written by the server; no script runs.
 */
export const PASSWORD_PAGE_CSP = PAGE_CSP.replace("form-action 'none'", "form-action 'self' http: https:");
