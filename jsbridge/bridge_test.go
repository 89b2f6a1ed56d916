//go:build js && wasm

package jsbridge

import (
	"context"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/jsbridge/internal/safejs"
)

// These tests run in headless Chromium (wasmbrowsertest) under the fixture
// server, which sets FIXTURE_URL:
//
//	GOOS=js GOARCH=wasm go test -exec "fixtureserver wasmbrowsertest" ./jsbridge/
//
// The test binary is itself a Go program that registers the bridge, so the
// tests load datafetch.mjs into the page, attach it to this bridge and
// drive the public API from JavaScript, as a page would.

var (
	dfOnce sync.Once
	df     safejs.Value
	dfErr  error
)

// api returns the df object of docs/js-api.md, attached to this program's bridge.
func api(t *testing.T) safejs.Value {
	t.Helper()
	dfOnce.Do(func() {
		Register()
		bridge := mustGet(global, GlobalName)
		// Import the module from a blob: URL (see moduleURL); load() is not
		// used, since the wasm it would start is this test binary, already
		// running.
		url, err := moduleURL("js/datafetch.mjs", map[string]string{})
		if err != nil {
			dfErr = err
			return
		}
		importer, err := mustGet(global, "Function").New("u", "return import(u)")
		if err != nil {
			dfErr = err
			return
		}
		pending, err := invoke(importer, url)
		if err != nil {
			dfErr = err
			return
		}
		mod, err := awaitTimeout(pending)
		if err != nil {
			dfErr = err
			return
		}
		df, dfErr = callMethod(mod, "attach", bridge)
	})
	if dfErr != nil {
		t.Fatalf("attaching datafetch.mjs: %v", dfErr)
	}
	return df
}

func awaitTimeout(p safejs.Value) (safejs.Value, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	return await(ctx, p)
}

// fixtureURL returns the fixture server's URL after resetting its data, or
// skips the test when it does not run under the fixture server.
func fixtureURL(t *testing.T) string {
	t.Helper()
	u := os.Getenv("FIXTURE_URL")
	if u == "" {
		t.Skip("FIXTURE_URL not set: run under the fixture server (./build.sh test)")
	}
	init, _ := safejs.ValueOf(map[string]any{"method": "POST"})
	p, err := callMethod(global, "fetch", u+"/_control/reset", init)
	if err == nil {
		_, err = awaitTimeout(p)
	}
	if err != nil {
		t.Fatalf("resetting the fixture server: %v", err)
	}
	return u
}

var asyncFunction = func() safejs.Value {
	f, _ := mustGet(global, "Function").New("return (async () => {}).constructor")
	ctor, _ := f.Invoke()
	return ctor
}()

// run runs body, the body of an async JavaScript function of (df, url),
// and returns what it resolves to, JSON-encoded there and parsed here.
func run(t *testing.T, body string) value.Value {
	t.Helper()
	d := api(t)
	url := fixtureURL(t)
	fn, err := asyncFunction.New("df", "url", "return JSON.stringify(await (async () => {"+body+"})())")
	if err != nil {
		t.Fatalf("compiling the test script: %v", err)
	}
	p, err := invoke(fn, d, url)
	if err == nil {
		p, err = awaitTimeout(p)
	}
	if err != nil {
		t.Fatalf("script failed: %v", err)
	}
	out, err := jsonArg(p, "script result")
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// check fails the test for each member of got that is not true.
func check(t *testing.T, got value.Value) {
	t.Helper()
	if got.Kind() != value.Object {
		t.Fatalf("script returned %s, want an object of checks", got)
	}
	for _, m := range got.Members() {
		if !m.Value.Boolean() {
			t.Errorf("%s: got %s", m.Key, m.Value)
		}
	}
}

const schemas = `
	const User = df.Entity({ key: 'User', defaults: { id: undefined, name: '' } });
	const Article = df.Entity({
		key: 'Article',
		defaults: { id: undefined, title: '', content: '', published: false, author: null, tags: [] },
		schema: { author: User, createdAt: Date },
	});
	const articles = df.resource({ urlPrefix: url, path: '/articles/:id', schema: Article });
	const ctrl = new df.Controller();
`

func TestReadKeepsIdentity(t *testing.T) {
	check(t, run(t, schemas+`
		const list = await ctrl.fetch(articles.getList);
		const again = ctrl.getResponse(articles.getList).data;
		const one = await ctrl.useSuspense(articles.get, { id: list[1].id });
		await ctrl.fetch(articles.partialUpdate, { id: list[1].id }, { title: 'edited' });
		const after = ctrl.getResponse(articles.getList).data;
		return {
			fetchResolvesToTheStoredObject: again === list,
			sameEntityAcrossResults: one === list[1],
			rereadIsIdentical: ctrl.getResponse(articles.getList).data === after,
			changedListIsNew: after !== list,
			changedEntityIsNew: after[1] !== list[1] && after[1].title === 'edited',
			unchangedEntitiesKept: after[0] === list[0] && after[2] === list[2],
			sameLength: after.length === list.length,
		};
	`))
}

func TestDateFieldIsADate(t *testing.T) {
	check(t, run(t, schemas+`
		const a = await ctrl.fetch(articles.get, { id: '1' });
		const raw = await (await fetch(url + '/articles/1')).json();
		const stored = ctrl.getState().entities.Article['1'].createdAt;
		return {
			isDate: a.createdAt instanceof Date,
			sameInstant: a.createdAt.getTime() === Date.parse(raw.createdAt),
			storedAsEpochMillis: stored === Date.parse(raw.createdAt),
			otherFieldsPlain: typeof a.title === 'string' && Array.isArray(a.tags),
		};
	`))
}

func TestNotFoundIsANetworkError(t *testing.T) {
	check(t, run(t, schemas+`
		const getArticle = new df.RestEndpoint({ urlPrefix: url, path: '/articles/:id', name: 'getArticle', schema: Article });
		let err;
		try { await ctrl.fetch(getArticle, { id: '999' }); } catch (e) { err = e; }
		return {
			rejected: err !== undefined,
			isNetworkError: err instanceof df.NetworkError && err instanceof Error,
			name: err?.name === 'NetworkError',
			status: err?.status === 404,
			statusText: err?.statusText === 'Not Found',
			body: err?.body?.error === 'article 999 not found',
			response: err?.response instanceof Response && err.response.status === 404,
			messageNamesEndpointAndURL: err?.message.includes('getArticle') && err.message.includes(url + '/articles/999'),
			keptForErrorExpiry: ctrl.getResponse(getArticle, { id: '999' }).expiryStatus === 'missing',
		};
	`))
}

func TestPanicInCallbackRejectsAndInstanceSurvives(t *testing.T) {
	check(t, run(t, schemas+`
		// merge has no error result in Go: a throw there panics inside the
		// store, under the controller's lock.
		const Fragile = df.Entity({
			key: 'Article', defaults: { id: undefined, title: '' },
			merge() { throw new Error('merge exploded'); },
		});
		const fragile = new df.RestEndpoint({ urlPrefix: url, path: '/articles/:id', name: 'fragile', schema: Fragile });
		await ctrl.fetch(fragile, { id: '3' }); // nothing stored yet: no merge
		let err;
		try { await ctrl.fetch(fragile, { id: '3' }); } catch (e) { err = e; }

		// A synchronous entry given nonsense throws instead of crashing.
		let thrown;
		try { ctrl.getResponse({}, { id: '1' }); } catch (e) { thrown = e; }

		const after = await ctrl.fetch(articles.get, { id: '4' });
		const sub = [];
		const unsubscribe = ctrl.subscribe(articles.get, { id: '4' }, (s) => sub.push(s));
		unsubscribe();
		return {
			rejected: err instanceof Error,
			messageSaysWhat: err?.message.includes('merge exploded') && err.message.includes('fragile'),
			causeIsTheThrownError: err?.cause instanceof Error && err.cause.message === 'merge exploded',
			syncThrows: thrown instanceof TypeError,
			fetchStillWorks: after.id === '4',
			controllerStillUnlocked: sub.length === 1 && sub[0].data === after,
		};
	`))
}

func TestGoPanicInEntryIsAnError(t *testing.T) {
	api(t)
	bridge := mustGet(global, GlobalName)
	// A handle of the wrong kind makes the entry fail inside Go.
	r, err := callMethod(bridge, "endpointURL", 0, "{}")
	if err != nil {
		t.Fatalf("the entry threw into Go: %v", err)
	}
	if ok, _ := r.InstanceOf(errorConstructor); !ok {
		t.Fatalf("endpointURL(0) returned %v, want an Error", r.Type())
	}
	// A panic: syncFunc recovers it.
	p := syncFunc("test", func([]safejs.Value) (any, error) { panic("boom") })
	defer p.Release()
	r, err = p.Value().Invoke()
	if err != nil {
		t.Fatal(err)
	}
	msg, _ := r.Get("message")
	if s, _ := msg.String(); s != "datafetch test: internal error: boom" {
		t.Errorf("panic became %q", s)
	}
}

func TestSubscribeSeesOptimisticUpdateAndRollback(t *testing.T) {
	check(t, run(t, schemas+`
		await fetch(url + '/_control/fail-next?count=1&status=500', { method: 'POST' });
		const states = [];
		const first = await ctrl.fetch(articles.get, { id: '2' });
		const unsubscribe = ctrl.subscribe(articles.get, { id: '2' }, (s) => states.push(s));
		const patch = articles.partialUpdate.extend({
			getOptimisticResponse(snap, params, body) { return { id: params.id, ...body }; },
		});
		const pending = ctrl.fetch(patch, { id: '2' }, { title: 'optimistic' });
		const during = ctrl.getResponse(articles.get, { id: '2' }).data;
		let err;
		try { await pending; } catch (e) { err = e; }
		unsubscribe();
		const titles = states.map((s) => s.data.title);
		return {
			syncFirstCall: states[0].data === first && states[0].loading === false,
			optimisticVisibleAtOnce: during.title === 'optimistic',
			listenerSawOptimistic: titles.includes('optimistic'),
			rejectedWith500: err?.status === 500,
			rolledBackToTheSameObject: states[states.length - 1].data === first,
		};
	`))
}

func TestAbortAndTimeout(t *testing.T) {
	check(t, run(t, schemas+`
		const ac = new AbortController();
		const hang = new df.RestEndpoint({ urlPrefix: url, path: '/bad/hang', signal: ac.signal });
		const pending = ctrl.fetch(hang);
		setTimeout(() => ac.abort(), 20);
		let aborted, timedOut;
		try { await pending; } catch (e) { aborted = e; }
		try { await ctrl.fetch(hang.extend({ signal: undefined, timeout: 30 })); } catch (e) { timedOut = e; }
		return {
			abortError: aborted?.name === 'AbortError' && aborted.status === 0,
			timeoutError: timedOut?.name === 'TimeoutError',
		};
	`))
}
