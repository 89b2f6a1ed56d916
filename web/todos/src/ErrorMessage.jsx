// What an AsyncBoundary shows when a read fails: the error, and a button
// that tries again.

export function ErrorMessage({ error, resetErrorBoundary }) {
  return (
    <div className="error" role="alert">
      <p>Could not load: {error.message}</p>
      <button type="button" onClick={resetErrorBoundary}>
        Try again
      </button>
    </div>
  );
}
