// The page's notices (what a mutation did, or why it was rolled back) and
// the demo server's network controls: added latency and "fail the next
// mutation", which drive the REST API's /_control/ routes.

import { createContext, useCallback, useContext, useMemo, useState } from 'react';
import { useLoading } from 'datafetch/react';
import { API } from './resources.js';

const Notices = createContext(undefined);

/** {notice, notify(text, bad), failArmed, armFail(), disarm()} of the page. */
export function useNotices() {
  return useContext(Notices);
}

export function NoticeProvider({ children }) {
  const [notice, setNotice] = useState({ text: '', bad: false });
  const [failArmed, setFailArmed] = useState(false);
  const notify = useCallback((text, bad = false) => setNotice({ text, bad }), []);
  const disarm = useCallback(() => setFailArmed(false), []);
  const armFail = useCallback(() => setFailArmed(true), []);
  const value = useMemo(() => ({ notice, notify, failArmed, armFail, disarm }), [notice, notify, failArmed, armFail, disarm]);
  return <Notices.Provider value={value}>{children}</Notices.Provider>;
}

export function Notice() {
  const { notice } = useNotices();
  return (
    <div id="notice" className={notice.bad ? 'bad' : ''} role="status" aria-live="polite">
      {notice.text}
    </div>
  );
}

/** POSTs to one of the REST API's network controls. */
async function control(what) {
  const response = await fetch(`${API}/_control/${what}`, { method: 'POST' });
  if (!response.ok) throw new Error(`${what}: ${response.status} ${await response.text()}`);
}

/** The latencies offered: a fixed delay, or a random one per request. */
const LATENCIES = [
  { label: 'none', query: 'ms=0' },
  { label: '0.3 s', query: 'ms=300' },
  { label: '1 s', query: 'ms=1000' },
  { label: 'random, up to 1 s', query: 'ms=0&jitter=1000' },
];

export function NetworkControls() {
  const { failArmed, armFail } = useNotices();
  // The latency chosen, and the one the server has taken.
  const [latency, setLatency] = useState(LATENCIES[0].query);
  const [applied, setApplied] = useState(LATENCIES[0].query);
  const [changeLatency, settingLatency, latencyError] = useLoading(async (query) => {
    setLatency(query);
    await control(`delay?${query}`);
    setApplied(query);
  }, []);
  const [failNext, arming, failError] = useLoading(async () => {
    await control('fail-next');
    armFail();
  }, [armFail]);
  const error = latencyError ?? failError;
  return (
    <div className="netctl" data-busy={String(settingLatency || arming)} data-latency={applied}>
      <label>
        Latency{' '}
        <select id="latency" value={latency} onChange={(e) => changeLatency(e.target.value)}>
          {LATENCIES.map((l) => (
            <option key={l.query} value={l.query}>
              {l.label}
            </option>
          ))}
        </select>
      </label>
      <button id="fail-next" type="button" className={`btn warn${failArmed ? ' armed' : ''}`} onClick={failNext}>
        Fail next mutation
      </button>
      {error && <span className="error-text">{error.message}</span>}
    </div>
  );
}
