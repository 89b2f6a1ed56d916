// The counter: each click is an optimistic +1 (controller.fetch of
// increment). With latency the answers can come back in another order
// than the clicks; Count's useIncoming keeps the newest by updatedAt, so
// the count shown never goes back and ends at the server's count.

import { useReducer, useRef } from 'react';
import { AsyncBoundary, useController, useSuspense } from 'datafetch/react';
import { ErrorMessage, Skeleton } from './boundary.jsx';
import { useNotices } from './notices.jsx';
import { getCount, increment } from './resources.js';

/** How many answers the log keeps. */
const LOG_SIZE = 8;

/** Clicks sent, answers received, and the last answers in arrival order. */
function clicksReducer(state, action) {
  switch (action.type) {
    case 'sent':
      return { ...state, sent: state.sent + 1 };
    case 'answered': {
      const answered = state.answered + 1;
      const log = [...state.log, { ...action.answer, order: answered }].slice(-LOG_SIZE);
      return { ...state, answered, log };
    }
    default:
      throw new Error(`clicksReducer: unknown action ${action.type}`);
  }
}

export function CounterPage() {
  const ctrl = useController();
  const { notify, disarm } = useNotices();
  const [clicks, dispatch] = useReducer(clicksReducer, { sent: 0, answered: 0, log: [] });
  const number = useRef(0);

  // Not useLoading: several increments run at once, each logged when it
  // is answered.
  const onClick = async () => {
    const click = ++number.current;
    dispatch({ type: 'sent' });
    let failed = false;
    try {
      await ctrl.fetch(increment);
    } catch (err) {
      failed = true;
      notify(`Click #${click} failed, so its +1 was rolled back: ${err.message}`, true);
    } finally {
      disarm();
    }
    const shown = ctrl.getResponse(getCount).data?.count;
    dispatch({ type: 'answered', answer: { click, shown, failed } });
  };

  const inFlight = clicks.sent - clicks.answered;
  return (
    <div className="columns">
      <section className="card counter-card">
        <div className="card-head">
          <h2>Count</h2>
        </div>
        <AsyncBoundary fallback={<Skeleton />} errorComponent={ErrorMessage}>
          <Count />
        </AsyncBoundary>
        <div className="form-actions">
          <button id="increment" className="btn primary big" type="button" onClick={onClick}>
            +1
          </button>
          <span className="muted" id="in-flight" data-n={inFlight}>
            {inFlight} in flight
          </span>
        </div>
      </section>
      <section className="card">
        <div className="card-head">
          <h2>Answers, in arrival order</h2>
        </div>
        {clicks.log.length === 0 && <p className="muted">Click +1 a few times.</p>}
        <ol className="log" id="counter-log">
          {clicks.log.map((a) => (
            <li key={a.click} className={a.click === a.order ? '' : 'reordered'}>
              {a.failed
                ? `click #${a.click} failed (answer ${a.order}); rolled back to ${a.shown}`
                : `click #${a.click} answered ${a.order}${ordinalSuffix(a.order)}; count shows ${a.shown}`}
            </li>
          ))}
        </ol>
      </section>
    </div>
  );
}

function Count() {
  const { count, updatedAt } = useSuspense(getCount);
  return (
    <div className="counter">
      <output id="count">{count}</output>
      <p className="muted">
        updatedAt <code id="count-updated">{updatedAt instanceof Date ? updatedAt.toISOString().slice(11, 23) : String(updatedAt)}</code>
      </p>
    </div>
  );
}

/** "st", "nd", "rd" or "th". */
function ordinalSuffix(n) {
  if (n % 100 >= 11 && n % 100 <= 13) return 'th';
  return { 1: 'st', 2: 'nd', 3: 'rd' }[n % 10] ?? 'th';
}
