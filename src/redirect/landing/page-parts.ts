/** Building blocks shared by the landing pages; every value in them goes through escapeHtml. */
import { escapeHtml } from './html';
import { icon, type IconName } from './icons';

export interface ActionLink {
  href: string;
  label: string;
  icon?: IconName;
  /** a download (the server answers with Content-Disposition: attachment too) */
  download?: boolean;
}

/** Buttons of a page: the first is the primary action, the others secondary (side by side when two). */
export function actions(primary: ActionLink | null, ...secondary: ActionLink[]): string {
  const buttons = secondary.map((link) => button(link, 'secondary')).join('');
  const secondaryHtml = secondary.length === 2 ? `<div class="pair">${buttons}</div>` : buttons;
  return `<div class="actions">${primary ? button(primary, 'primary') : ''}${secondaryHtml}</div>`;
}

function button(link: ActionLink, kind: 'primary' | 'secondary'): string {
  const download = link.download ? ' download' : '';
  const iconHtml = link.icon ? icon(link.icon) : '';
  return `<a class="button ${kind}" href="${escapeHtml(link.href)}"${download}>${iconHtml}<span>${escapeHtml(link.label)}</span></a>`;
}

/** A labelled row of details; with an href the whole row is the link (a tall tap target). */
export interface Row {
  label: string;
  /** markup of the value (escape what goes in) */
  valueHtml: string;
  href?: string;
}

export function rows(items: Row[]): string {
  if (items.length === 0) return '';
  const listItems = items.map(({ label, valueHtml, href }) => {
    const inner = `<span class="label">${escapeHtml(label)}</span><span class="value" dir="auto">${valueHtml}</span>`;
    return href === undefined ? `<li><div class="row">${inner}</div></li>` : `<li><a class="row" href="${escapeHtml(href)}">${inner}</a></li>`;
  });
  return `<ul class="rows">${listItems.join('')}</ul>`;
}

/**
 * A read-only field holding a value to copy: selectable with a long press or a click, no script
 * needed. `multiline` makes it a text area (a message with line breaks).
 */
export function copyField(field: { id: string; label: string; value: string; secret?: boolean; multiline?: boolean; hint?: string }): string {
  const classes = field.secret ? ' class="secret"' : '';
  const control = field.multiline
    ? // The parser drops one line break right after <textarea>: this one, so a message's own first line break stays.
      `<textarea id="${field.id}" readonly rows="${Math.min(6, field.value.split('\n').length + 1)}" dir="auto"${classes}>\n` +
      `${escapeHtml(field.value)}</textarea>`
    : `<input id="${field.id}" type="text" readonly value="${escapeHtml(field.value)}" dir="auto" ` +
      `autocomplete="off" autocapitalize="off" spellcheck="false"${classes}>`;
  const hint = field.hint === undefined ? '' : `<p class="hint">${escapeHtml(field.hint)}</p>`;
  return `<div class="field"><label for="${field.id}">${escapeHtml(field.label)}</label>${control}${hint}</div>`;
}

/** Inline text of either direction (an Arabic title beside a Latin company name) that must not reorder its neighbours. */
export const isolated = (text: string) => `<bdi>${escapeHtml(text)}</bdi>`;
