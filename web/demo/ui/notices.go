package ui

import (
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// noticeKind styles a notice.
type noticeKind string

// The kinds of notices.
const (
	noticeInfo  noticeKind = "info"
	noticeError noticeKind = "error"
)

// notice is one message of the notice area.
type notice struct {
	id   int
	kind noticeKind
	text string
}

// noticeLifetime is how long a notice stays up.
const noticeLifetime = 8 * time.Second

// notify shows a notice in the notice area of the page on screen, if
// any. It may be called from any goroutine, so that the outcome of a
// mutation is reported even when the page that started it is gone.
func (d *Demo) notify(kind noticeKind, text string) {
	d.mu.Lock()
	c, ctx := d.noticeArea, d.noticeCtx
	d.mu.Unlock()
	if c == nil {
		return
	}
	ctx.Dispatch(func(ctx app.Context) { c.add(ctx, kind, text) })
}

// notices is the notice area: messages such as "rolled back" that appear
// in a corner and go away by themselves.
type notices struct {
	app.Compo
	d    *Demo
	list []notice
	next int
}

func (c *notices) OnMount(ctx app.Context) {
	c.d.mu.Lock()
	c.d.noticeArea, c.d.noticeCtx = c, ctx
	c.d.mu.Unlock()
}

func (c *notices) OnDismount() {
	c.d.mu.Lock()
	if c.d.noticeArea == c {
		c.d.noticeArea = nil
	}
	c.d.mu.Unlock()
}

// add shows a notice and schedules its removal.
func (c *notices) add(ctx app.Context, kind noticeKind, text string) {
	c.next++
	n := notice{id: c.next, kind: kind, text: text}
	c.list = append(c.list, n)
	ctx.After(noticeLifetime, func(ctx app.Context) { c.remove(n.id) })
}

func (c *notices) remove(id int) {
	for i, n := range c.list {
		if n.id == id {
			c.list = append(c.list[:i:i], c.list[i+1:]...)
			return
		}
	}
}

func (c *notices) Render() app.UI {
	return app.Div().Class("notices").Aria("live", "polite").Body(
		app.Range(c.list).Slice(func(i int) app.UI {
			n := c.list[i]
			return app.Div().Class("notice notice-"+string(n.kind)).Role("status").Body(
				app.Span().Class("notice-text").Text(n.text),
				app.Button().Class("notice-close").Aria("label", "Dismiss").Text("×").
					OnClick(func(app.Context, app.Event) { c.remove(n.id) }, app.EventScope(n.id)),
			)
		}),
	)
}
