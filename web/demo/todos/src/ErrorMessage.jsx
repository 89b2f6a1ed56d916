// What an AsyncBoundary shows when a read fails: the error, and a button
// that tries again. A failed fetch's error is kept for a moment (the
// endpoint's errorExpiryLength), so trying again first invalidates the
// result that failed: the read fetches anew.

import { useController } from 'datafetch/react';

export function ErrorMessage({ error, resetErrorBoundary, failed }) {
  const ctrl = useController();
  const retry = async () => {
    if (failed !== undefined) await ctrl.invalidate(failed.endpoint, failed.params);
    resetErrorBoundary();
  };
  return (
    <div className="error" role="alert">
      <p>Could not load: {error.message}</p>
      <button type="button" onClick={retry}>
        Try again
      </button>
    </div>
  );
}

/** An errorComponent whose retry fetches endpoint with params again. */
export function retrying(endpoint, params) {
  return function FailedRead(props) {
    return <ErrorMessage {...props} failed={{ endpoint, params }} />;
  };
}
