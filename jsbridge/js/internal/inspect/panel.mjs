// df.inspect (docs/js-api.md, "Inspector"): a live panel of one
// controller. Nothing here runs until inspect is called: this module's top
// level only defines. While a panel is open it watches the controller's
// change counter once per animation frame (a memory load) and, when the
// counter moved or a tick has passed (time left, requests in flight), reads
// the inspection model from Go, resting after each read in proportion to
// what it cost (REST_FACTOR). It only reads: the model, getState for
// opened entity types, and the counter.

import { HOST_TAG, STYLES } from './styles.mjs';
import { PAGE_ROWS, render, viewOf } from './view.mjs';

/** How often an expanded panel refreshes without a change (time left). */
export const TICK_MS = 500;
/** How often a collapsed panel (its summary) refreshes without a change. */
export const COLLAPSED_TICK_MS = 2000;
// Without requestAnimationFrame (a page in the background of some
// engines, a DOM without one), frames come from a timer this often.
const FALLBACK_FRAME_MS = 100;
/**
 * After a read that took c ms, the panel reads again (for a change or a
 * tick) no sooner than REST_FACTOR × c ms later: a read costs time in
 * proportion to the store, and this keeps the panel to at most a fifth of
 * the page's time however large the store is. What the user asks for
 * (show more, open a type, expand) is read at the next frame.
 */
export const REST_FACTOR = 4;

// The panel's accessible name, and the header's text (an arrow says
// whether it is open).
const TITLE = 'datafetch inspector';
const HEADING = 'datafetch';
const OPEN_MARK = '▾';
const CLOSED_MARK = '▸';

/**
 * inspect renders a live view of source (see controller.mjs inspectSource)
 * into element, or into a floating, collapsed panel added to
 * document.body; it returns a function that removes it and stops watching.
 */
export function inspect(source, element) {
  const doc = documentOf(element);
  const floating = element === undefined || element === null;
  const host = doc.createElement(HOST_TAG);
  if (floating) host.setAttribute('data-floating', '');
  const root = host.attachShadow({ mode: 'open' });
  const style = doc.createElement('style');
  style.textContent = STYLES;

  const panel = doc.createElement('section');
  panel.className = 'panel';
  panel.setAttribute('aria-label', TITLE);
  const toggle = doc.createElement('button');
  toggle.type = 'button';
  toggle.className = 'toggle';
  toggle.title = `Show or hide the ${TITLE}`;
  const summary = doc.createElement('span');
  summary.className = 'summary';
  summary.setAttribute('aria-live', 'polite');
  const header = doc.createElement('header');
  header.append(toggle, summary);
  const body = doc.createElement('div');
  body.className = 'body';
  panel.append(header, body);
  root.append(style, panel);

  // A floating panel starts collapsed, so that it covers no more of the
  // page than its header.
  let collapsed = floating;
  const showCollapsed = () => {
    panel.classList.toggle('collapsed', collapsed);
    toggle.setAttribute('aria-expanded', String(!collapsed));
    toggle.textContent = `${collapsed ? CLOSED_MARK : OPEN_MARK} ${HEADING}`;
  };
  showCollapsed();

  const open = new Set(); // the entity types the user opened
  const shown = {}; // rows each section shows, past the first page
  let version; // the counter when the model was read
  let lastRead = -Infinity; // when it was read (performance.now() ms)
  let lastView = ''; // JSON of the view on screen
  let restUntil = -Infinity; // no read before this frame time (REST_FACTOR)
  let tables; // getState().entities, while a type is open
  let tablesVersion;
  let stopped = false;
  let frame;

  function refresh() {
    const model = source.model();
    if (open.size > 0 && (tables === undefined || version !== tablesVersion || version === undefined)) {
      tables = source.state().entities;
      tablesVersion = version;
    } else if (open.size === 0) {
      tables = undefined;
    }
    const view = viewOf(model, tables, open, shown);
    summary.textContent = view.summary;
    if (collapsed) return;
    const text = JSON.stringify(view);
    if (text === lastView) return;
    lastView = text;
    render(body, view, onToggle, onMore);
  }

  function onMore(section) {
    shown[section] = (shown[section] ?? PAGE_ROWS) + PAGE_ROWS;
    readNow();
  }

  // readNow makes the next frame read, resting or not: the user asked.
  function readNow() {
    lastRead = -Infinity;
    restUntil = -Infinity;
  }

  function onToggle(type, isOpen) {
    if (open.has(type) === isOpen) return;
    if (isOpen) open.add(type);
    else open.delete(type);
    readNow();
  }

  toggle.addEventListener('click', () => {
    collapsed = !collapsed;
    showCollapsed();
    lastView = '';
    readNow();
  });

  const win = doc.defaultView;
  const perf = win?.performance ?? globalThis.performance;
  const nextFrame =
    typeof win?.requestAnimationFrame === 'function' ? (f) => win.requestAnimationFrame(f) : (f) => setTimeout(() => f(perf.now()), FALLBACK_FRAME_MS);
  const cancelFrame = typeof win?.cancelAnimationFrame === 'function' ? (id) => win.cancelAnimationFrame(id) : clearTimeout;

  function step(t) {
    if (stopped) return;
    const v = source.changes();
    if (t >= restUntil && (v !== version || t - lastRead >= (collapsed ? COLLAPSED_TICK_MS : TICK_MS))) {
      version = v;
      lastRead = t;
      const began = perf.now();
      try {
        refresh();
      } catch (err) {
        // The module failed (it exited, say): say so and stop watching.
        summary.textContent = `stopped: ${err?.message ?? err}`;
        return;
      }
      const ended = perf.now();
      restUntil = ended + (ended - began) * REST_FACTOR;
    }
    frame = nextFrame(step);
  }

  (floating ? doc.body : element).append(host);
  step(perf.now());

  return function stop() {
    if (stopped) return;
    stopped = true;
    cancelFrame(frame);
    host.remove();
  };
}

// documentOf returns the document to render into: element's, or the
// global one for the floating panel.
function documentOf(element) {
  if (element === undefined || element === null) {
    const doc = globalThis.document;
    if (doc?.body == null) throw new Error('inspect: there is no document.body to add the panel to: pass an element');
    return doc;
  }
  if (typeof element !== 'object' || typeof element.append !== 'function' || element.ownerDocument == null) {
    throw new TypeError(`inspect: element must be a DOM element, got ${element === null ? 'null' : typeof element}`);
  }
  return element.ownerDocument;
}
