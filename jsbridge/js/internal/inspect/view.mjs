// What the panel shows, in two steps: viewOf turns the model (core/inspect,
// through the bridge) and the records of the entity types the user opened
// into plain rows of text, and render writes those rows into the panel's
// body. Equal rows render to equal DOM, so the panel compares them and
// leaves the DOM alone when nothing it shows has changed.

import { duration, number, recordText, timeLeft } from './format.mjs';

/** The most records one opened entity type lists. */
export const MAX_RECORDS = 200;

/**
 * How many rows a section shows at first, and how many more each "show
 * more" adds: a store of any size renders a bounded page.
 */
export const PAGE_ROWS = 100;

// The panel's sections: their data-section name, heading, and the text
// shown when a section is empty.
const SECTIONS = [
  ['entities', 'Entities by type', 'Nothing stored yet.'],
  ['results', 'Results', 'No results yet.'],
  ['optimistic', 'Optimistic queue', 'Empty: nothing waits for the server.'],
  ['requests', 'In flight', 'No request in flight.'],
  ['errors', 'Last errors', 'No errors.'],
];

/**
 * viewOf returns the rows to show: model is the inspection, tables the
 * entity tables of getState() (or undefined when no type is open), open
 * the names of the opened types, shown the number of rows each section
 * shows (PAGE_ROWS where it has none). Each section's list is cut to its
 * page; totals says how many rows it has in all.
 */
export function viewOf(model, tables, open, shown = {}) {
  const { now } = model;
  const totals = {};
  const page = (name, list) => {
    totals[name] = list.length;
    return list.slice(0, shown[name] ?? PAGE_ROWS);
  };
  const total = model.entities.reduce((n, t) => n + t.count, 0);
  return {
    summary: [
      count(total, 'entity', 'entities'),
      count(model.results.length, 'result', 'results'),
      `${model.optimistic.length} optimistic`,
      `${model.requests.length} in flight`,
      count(model.errors.filter((e) => e.kept).length, 'error', 'errors'),
    ].join(' · '),
    entities: page('entities', model.entities).map(({ type, count, deleted }) => {
      const row = { type, count: deleted > 0 ? `${number(count)} (${number(deleted)} deleted)` : number(count), open: open.has(type) };
      if (row.open) {
        const records = Object.entries(tables?.[type] ?? {});
        row.records = records.slice(0, MAX_RECORDS).map(([pk, rec]) => [pk, recordText(rec)]);
        row.more = Math.max(records.length - MAX_RECORDS, 0);
      }
      return row;
    }),
    results: page('results', model.results).map((r) => ({
      key: r.key,
      label: r.label,
      status: r.status,
      when: r.status === 'valid' ? timeLeft(r.timeLeft) : r.fetchedAt > 0 ? `${duration(now - r.fetchedAt)} ago` : '',
      error: r.error,
    })),
    optimistic: page('optimistic', model.optimistic).map((p) => ({ key: p.key, label: p.label, when: duration(now - p.fetchedAt) })),
    requests: page('requests', model.requests).map((q) => ({ key: q.key, label: q.label, mutation: q.mutation, when: duration(now - q.startedAt) })),
    errors: page('errors', model.errors).map((e) => ({
      key: e.key,
      label: e.label,
      message: e.message,
      kept: e.kept,
      when: e.kept ? `kept ${duration(e.expiresAt - now)}` : 'expired',
    })),
    totals,
  };
}

/**
 * render replaces body's content with view. onToggle(type, open) is
 * called when the user opens or closes an entity type, onMore(section)
 * when they ask for more rows of a section.
 */
export function render(body, view, onToggle, onMore) {
  const doc = body.ownerDocument;
  const el = (tag, attrs, ...children) => {
    const e = doc.createElement(tag);
    for (const [k, v] of Object.entries(attrs ?? {})) {
      if (v !== undefined && v !== false) e.setAttribute(k, v === true ? '' : v);
    }
    e.append(...children.filter((c) => c !== undefined));
    return e;
  };
  const badge = (kind, text = kind) => el('span', { class: `badge ${kind}` }, text);
  const label = (r) => el('span', { class: 'label', title: r.key }, r.label);
  const when = (text, title) => el('span', { class: 'when', title }, text);

  const rowsOf = {
    entities: (t) => {
      const details = el('details', { open: t.open }, el('summary', {}, t.type, el('span', { class: 'count' }, t.count)), t.records && recordsTable(el, t));
      details.addEventListener('toggle', () => onToggle(t.type, details.open));
      return el('li', { class: 'type', 'data-type': t.type }, details);
    },
    results: (r) =>
      el(
        'li',
        { 'data-key': r.key, 'data-status': r.status },
        badge(r.status),
        label(r),
        when(r.when, r.status === 'valid' ? 'time left' : 'fetched'),
        r.error === undefined ? undefined : el('span', { class: 'message' }, r.error),
      ),
    optimistic: (p) => el('li', { 'data-key': p.key }, badge('pending'), label(p), when(p.when, 'waiting for')),
    requests: (q) => el('li', { 'data-key': q.key }, badge('pending', q.mutation ? 'mutation' : 'read'), label(q), when(q.when, 'in flight for')),
    errors: (e) => el('li', { 'data-key': e.key, 'data-kept': e.kept }, badge('error'), label(e), when(e.when), el('span', { class: 'message' }, e.message)),
  };

  const sections = SECTIONS.map(([name, heading, none]) => {
    const rows = view[name];
    const content = rows.length === 0 ? el('p', { class: 'muted' }, none) : el('ul', {}, ...rows.map(rowsOf[name]));
    const total = view.totals?.[name] ?? rows.length;
    let more;
    if (total > rows.length) {
      const button = el('button', { type: 'button' }, `Show ${Math.min(PAGE_ROWS, total - rows.length)} more`);
      button.addEventListener('click', () => onMore(name));
      more = el('p', { class: 'more' }, `Showing ${number(rows.length)} of ${number(total)} `, button);
    }
    return el('section', { 'data-section': name }, el('h3', {}, heading), content, more);
  });
  body.replaceChildren(...sections);
}

// count writes n and the noun, singular or plural.
function count(n, one, many) {
  return `${number(n)} ${n === 1 ? one : many}`;
}

// recordsTable lists an opened entity type's records: pk, then the record.
function recordsTable(el, t) {
  const rows = t.records.map(([pk, text]) => el('tr', {}, el('th', { scope: 'row' }, pk), el('td', {}, text)));
  if (t.more > 0) rows.push(el('tr', {}, el('th', {}, '…'), el('td', {}, `${number(t.more)} more`)));
  return el('div', { class: 'records' }, el('table', {}, el('tbody', {}, ...rows)));
}
