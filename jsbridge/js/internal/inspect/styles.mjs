// The inspector's style sheet. It lives in the panel's shadow root, so the
// page's CSS does not reach the panel and this does not reach the page. The
// host is an element of its own name, which page rules do not select; the
// panel sets its own font and colours, so that what a page's rules make
// the host inherit stops there.

/** The tag name of the panel's host element (a valid custom element name). */
export const HOST_TAG = 'datafetch-inspector';

export const STYLES = `
:host {
  all: initial;
  display: block;
}
:host([data-floating]) {
  position: fixed;
  right: 12px;
  bottom: 12px;
  z-index: 2147483647;
  width: min(460px, calc(100vw - 24px));
}
.panel {
  font: 12px/1.4 ui-sans-serif, system-ui, sans-serif;
  color: #1d2433;
  text-align: left;
  background: #fbfcfe;
  border: 1px solid #c9d1de;
  border-radius: 8px;
  box-shadow: 0 4px 16px rgb(0 0 0 / 0.15);
  overflow: hidden;
}
header {
  display: flex;
  align-items: center;
  gap: 8px;
  padding: 6px 8px;
  background: #1d2433;
  color: #f3f5f9;
}
header button {
  all: unset;
  cursor: pointer;
  font-weight: 600;
  white-space: nowrap;
}
header button:focus-visible { outline: 2px solid #7aa7ff; outline-offset: 2px; }
.summary {
  margin-left: auto;
  min-width: 0;
  overflow: hidden;
  text-overflow: ellipsis;
  white-space: nowrap;
  color: #b8c2d6;
  font-variant-numeric: tabular-nums;
}
.body { max-height: min(60vh, 520px); overflow: auto; padding: 4px 10px 10px; }
.panel.collapsed .body { display: none; }
h3 {
  margin: 10px 0 4px;
  font-size: 11px;
  letter-spacing: 0.04em;
  text-transform: uppercase;
  color: #56627a;
}
ul { list-style: none; margin: 0; padding: 0; }
li { display: flex; flex-wrap: wrap; gap: 2px 6px; align-items: baseline; padding: 2px 0; border-bottom: 1px solid #eef1f6; }
li.type { display: block; }
summary { cursor: pointer; }
.muted { color: #7a859b; margin: 2px 0; }
.more { color: #56627a; margin: 4px 0; }
.more button { font: inherit; border: 1px solid #c9cfdb; background: #f4f6fa; border-radius: 4px; padding: 0 6px; cursor: pointer; }
.count { font-variant-numeric: tabular-nums; color: #56627a; margin-left: 4px; }
.label { font-family: ui-monospace, monospace; font-size: 11px; overflow-wrap: anywhere; flex: 1 1 12em; min-width: 0; }
.when { color: #56627a; white-space: nowrap; font-variant-numeric: tabular-nums; }
.message { color: #9b1c1c; overflow-wrap: anywhere; flex-basis: 100%; }
.badge {
  display: inline-block;
  min-width: 52px;
  text-align: center;
  border-radius: 4px;
  padding: 0 4px;
  font-size: 11px;
  font-weight: 600;
}
.badge.valid { background: #dcf3e3; color: #1c6b37; }
.badge.stale { background: #fdf0cf; color: #7a5200; }
.badge.invalid, .badge.missing { background: #e8ebf1; color: #3b4558; }
.badge.error { background: #fbe0e0; color: #9b1c1c; }
.badge.pending { background: #e4ecff; color: #23408f; }
.records { max-height: 180px; overflow: auto; margin: 4px 0; border: 1px solid #eef1f6; }
table { border-collapse: collapse; width: 100%; }
th { text-align: right; padding-right: 6px; color: #56627a; font-weight: 500; vertical-align: top; }
td { font-family: ui-monospace, monospace; font-size: 11px; overflow-wrap: anywhere; }
`;
