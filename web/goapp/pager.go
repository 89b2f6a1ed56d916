package goapp

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/df"
	"github.com/datafetch/datafetch/core/rest"
	"github.com/datafetch/datafetch/core/value"
)

// errPagerNotUsed is Pager.More's error before Use named the endpoints.
var errPagerNotUsed = errors.New("goapp: Pager.More before Pager.Use: no endpoint to page")

// Pager is a component's paginated ("load more") list: a Query of a list
// endpoint with a PaginationField (df.ListOf's GetList, an envelope such
// as {results, nextCursor}) and the GetPage endpoint that appends the next
// page to the list it reads, as data-client's getList.getPage does. The
// Query shows the whole list, every page fetched so far; More fetches the
// page after it, and Busy and Err say how the last More went. Its outcome
// reaches the component that owns the Pager even when the clicked "More"
// button is gone, as a Mutation's does. The zero Pager reads nothing; keep
// one as an unexported field of the component, call Use from OnMount (or
// OnNav) and Close from OnDismount.
type Pager[L any] struct {
	// Query reads the list: render it with Query.Render.
	Query[L]
	more Loading

	mu      sync.Mutex
	ctrl    *controller.Controller
	getPage *df.Endpoint[L]
	field   string
	params  value.Value
	cursor  func(L) string
	err     error // of Use: params or endpoints that cannot page
	used    bool
}

// Use makes the pager read getList's result for params through ctrl, as
// Query.Use does, and page it with getPage. cursor returns the cursor of
// the page after the list it is given (the envelope's nextCursor), "" at
// the end; More sends it as getList's PaginationField param, with the
// other params unchanged. Call it on the UI goroutine.
func (p *Pager[L]) Use(ctx app.Context, ctrl *controller.Controller, getList, getPage *df.Endpoint[L], params any, cursor func(L) string) {
	var field string
	pv, err := getList.Params(params)
	if re, ok := getList.Endpoint().(*rest.Endpoint); ok {
		field = re.Options().PaginationField
	}
	switch {
	case err != nil:
	case field == "":
		err = fmt.Errorf("goapp: Pager.Use: %s has no PaginationField: nothing to page", getList.Name())
	case getPage == nil:
		err = fmt.Errorf("goapp: Pager.Use: getPage is nil: nothing fetches %s's next page", getList.Name())
	case cursor == nil:
		err = fmt.Errorf("goapp: Pager.Use: cursor is nil: nothing reads %s's next cursor", getList.Name())
	case pv.IsUndefined():
		pv = value.Obj()
	}
	p.mu.Lock()
	p.ctrl, p.getPage, p.field, p.params, p.cursor, p.err, p.used = ctrl, getPage, field, pv, cursor, err, true
	p.mu.Unlock()
	p.Query.Use(ctx, ctrl, getList, params)
}

// next returns the params of the page after the list shown, and whether
// there is one.
func (p *Pager[L]) next() (value.Value, bool) {
	st := p.Query.State()
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.used || p.err != nil || !st.Usable() {
		return value.Undef, false
	}
	c := p.cursor(st.Data)
	if c == "" {
		return value.Undef, false
	}
	return p.params.With(p.field, value.Str(c)), true
}

// HasMore reports whether the list shown has a page after it: its cursor
// is not "".
func (p *Pager[L]) HasMore() bool {
	_, ok := p.next()
	return ok
}

// More fetches the page after the list shown and appends it, in the
// background; it sends nothing while a More is running or when there is
// no next page (HasMore). The component Use was given updates when it
// starts and when it ends (the query updates it with the longer list). ctx
// is the caller's (an event handler's): it is used only when Use was not
// called. Call More on the UI goroutine.
func (p *Pager[L]) More(ctx app.Context) {
	if p.hasOwner {
		ctx = p.owner
	}
	p.mu.Lock()
	useErr, used := p.err, p.used
	p.mu.Unlock()
	if p.more.Busy() {
		return
	}
	params, ok := p.next()
	if used && useErr == nil && !ok {
		return
	}
	p.more.Run(ctx, func(c context.Context) error {
		switch {
		case !used:
			return errPagerNotUsed
		case useErr != nil:
			return useErr
		}
		p.mu.Lock()
		ctrl, getPage := p.ctrl, p.getPage
		p.mu.Unlock()
		_, err := getPage.Fetch(c, ctrl, params, nil)
		return err
	}, nil)
}

// Busy reports whether a More is in progress.
func (p *Pager[L]) Busy() bool { return p.more.Busy() }

// Err returns the error of the last More that ended (nil while one runs);
// the list read's own error is in Query.State().Err.
func (p *Pager[L]) Err() error { return p.more.Err() }
