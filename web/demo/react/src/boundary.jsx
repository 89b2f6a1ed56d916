// What AsyncBoundaries show while loading and on an error.

export function Skeleton({ lines = 2 }) {
  return (
    <div className="skeletons" aria-busy="true">
      {Array.from({ length: lines }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholders, all alike
        <div key={i} className="skeleton" />
      ))}
    </div>
  );
}

/** The errorComponent of the AsyncBoundaries: the message and a retry. */
export function ErrorMessage({ error, resetErrorBoundary }) {
  return (
    <div className="error" role="alert">
      {error.message}{' '}
      <button className="btn" type="button" onClick={resetErrorBoundary}>
        Retry
      </button>
    </div>
  );
}
