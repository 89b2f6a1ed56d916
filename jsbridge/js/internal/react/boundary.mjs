// <AsyncBoundary>: a Suspense boundary and an error boundary in one.

import { Component, Suspense, createElement } from 'react';

/** The errorComponent AsyncBoundary uses when it is given none. */
function DefaultError({ error }) {
  return createElement('div', { role: 'alert' }, String(error?.message ?? error));
}

/**
 * An error boundary: the first error thrown below it renders
 * errorComponent({error, resetErrorBoundary}) instead of its children;
 * resetErrorBoundary() renders the children again.
 */
export class ErrorBoundary extends Component {
  constructor(props) {
    super(props);
    this.state = { error: undefined };
    this.resetErrorBoundary = () => this.setState({ error: undefined });
  }

  static getDerivedStateFromError(error) {
    // Anything may be thrown: a boundary holding `undefined` would look
    // like one holding no error.
    return { error: error ?? new Error(`a component threw ${error}`) };
  }

  render() {
    const { error } = this.state;
    if (error === undefined) return this.props.children;
    return createElement(this.props.errorComponent ?? DefaultError, { error, resetErrorBoundary: this.resetErrorBoundary });
  }
}

/**
 * <AsyncBoundary fallback={...} errorComponent={Component}>: shows fallback
 * while a hook below suspends, and errorComponent({error,
 * resetErrorBoundary}) when one throws.
 */
export function AsyncBoundary({ fallback = null, errorComponent, children }) {
  return createElement(Suspense, { fallback }, createElement(ErrorBoundary, { errorComponent }, children));
}
