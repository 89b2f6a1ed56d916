package goapp

import (
	"context"
	"sync"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Loading runs an asynchronous action of a component, such as a
// mutation, and tracks it as data-client's useLoading does: whether it is
// running, and the error of its last run, exposed rather than thrown. The
// zero Loading is ready; keep it as an unexported field of the component.
type Loading struct {
	mu      sync.Mutex
	running int
	err     error
}

// Run calls fn in a goroutine. The component of ctx updates when the run
// starts and when it ends; then Err holds fn's error (nil on success) and,
// when done is not nil, done is called on the UI goroutine with it. ctx may
// be an event handler's: go-app updates the component around its element.
// If that element is gone by the end of the run (a deleted row's button),
// neither the update nor done happens: pass the component's own context
// (kept from OnMount), or run mutations with a [Mutation], which does.
func (l *Loading) Run(ctx app.Context, fn func(context.Context) error, done func(ctx app.Context, err error)) {
	l.mu.Lock()
	l.running++
	l.err = nil
	l.mu.Unlock()
	ctx.Update()
	ctx.Async(func() {
		err := fn(context.Background())
		l.mu.Lock()
		l.running--
		l.err = err
		l.mu.Unlock()
		ctx.Dispatch(func(ctx app.Context) {
			if done != nil {
				done(ctx, err)
			}
		})
	})
}

// Busy reports whether a run is in progress.
func (l *Loading) Busy() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.running > 0
}

// Err returns the error of the last run that ended; nil while one runs.
func (l *Loading) Err() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.err
}
