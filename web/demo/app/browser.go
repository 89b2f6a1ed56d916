//go:build js && wasm

package main

import (
	"sync"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/rest"
	"github.com/datafetch/datafetch/jsbridge/fetch"
	"github.com/datafetch/datafetch/web/browser/lifecycle"
	"github.com/datafetch/datafetch/web/browser/persist"
	"github.com/datafetch/datafetch/web/browser/tabsync"
	"github.com/datafetch/datafetch/web/demo/ui"
)

// useFetch sends the endpoints' requests with the browser's fetch.
func useFetch() { rest.DefaultTransport = fetch.Transport{} }

// Where the demo keeps its cache and whether to: the snapshot under
// persistKey, "on" under persistSettingKey while the top bar's toggle is
// on. The key is not df.persist's default, so the plain JS page's cache
// (in IndexedDB anyway) and the demo's stay apart.
const (
	persistKey        = "datafetch-goapp-demo"
	persistSettingKey = "datafetch-goapp-demo-persist"
	// persistBuster changes when the demo's data changes shape, so that an
	// older build's kept cache is dropped.
	persistBuster = "demo-1"
)

// connect plugs the browser adapters into the demo's controller: the
// other tabs of the demo (tabsync), the kept cache when its toggle is on
// (persist; restored here, before the first render), and revalidation
// when the tab is shown again or the network comes back (lifecycle). They
// run for the page's life: nothing stops them.
func connect(d *ui.Demo) {
	c := d.Controller()
	if _, err := tabsync.Sync(c, tabsync.Options{Channel: "datafetch-goapp-demo"}); err != nil {
		app.Logf("datafetch demo: no sync between tabs: %v", err)
	}
	lifecycle.Watch(c, lifecycle.Options{})
	p := &persistence{c: c}
	storage, err := persist.LocalStorage()
	if err != nil {
		app.Logf("datafetch demo: no persistence: %v", err)
		return
	}
	p.storage = storage
	if on, _, _ := storage.GetItem(persistSettingKey); on == "on" {
		if err := p.start(); err != nil {
			app.Logf("datafetch demo: the kept cache is not used: %v", err)
		}
	}
	d.SetPersistence(p)
}

// persistence is the ui.Persistence of the top bar's toggle.
type persistence struct {
	c       *controller.Controller
	storage persist.Storage

	mu sync.Mutex
	p  *persist.Persister // running while on
}

func (p *persistence) options() persist.Options {
	return persist.Options{
		Storage: p.storage,
		Key:     persistKey,
		Buster:  persistBuster,
		OnError: func(err error) { app.Logf("datafetch demo: %v", err) },
	}
}

// start restores the kept cache and keeps it from now on. A kept cache
// that cannot be read is reported, and persistence runs anyway (the next
// write replaces it).
func (p *persistence) start() error {
	pr, err := persist.Start(p.c, p.options())
	p.mu.Lock()
	p.p = pr
	p.mu.Unlock()
	return err
}

func (p *persistence) Enabled() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.p != nil
}

func (p *persistence) SetEnabled(on bool) error {
	if on == p.Enabled() {
		return nil
	}
	if !on {
		p.mu.Lock()
		pr := p.p
		p.p = nil
		p.mu.Unlock()
		if err := p.storage.RemoveItem(persistSettingKey); err != nil {
			return err
		}
		return pr.Clear()
	}
	if err := p.storage.SetItem(persistSettingKey, "on"); err != nil {
		return err
	}
	if err := p.start(); err != nil {
		app.Logf("datafetch demo: %v", err)
	}
	return nil
}
