package rest_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/rest"
	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
)

// TestFetchBody: the text of a plain 2xx JSON response is handed over
// before parsing, as parse reads it (no byte-order mark); a hook's value
// hands over the text it was parsed from (none when built), a FetchText
// hook its text unparsed (none when marked); a response that is not a
// JSON 2xx body hands over none; parse gives what Fetch gives, errors
// included.
func TestFetchBody(t *testing.T) {
	tests := []struct {
		name    string
		status  int
		body    string
		opts    func(o *rest.Options)
		text    string
		value   string
		wantErr string
	}{
		{name: "json", status: 200, body: `[{"id":1}]`, text: `[{"id":1}]`, value: `[{"id":1}]`},
		{name: "byte-order mark", status: 200, body: "\xEF\xBB\xBF{\"a\":1}", text: `{"a":1}`, value: `{"a":1}`},
		{name: "204", status: 204, body: ``, value: `null`},
		{name: "blank", status: 200, body: " \n", value: `null`},
		{name: "error status", status: 500, body: `{"e":1}`, wantErr: "500"},
		{name: "not json", status: 200, body: `{"a":`, text: `{"a":`, value: `"{\"a\":"`},
		{name: "not json, with a schema", status: 200, body: `{"a":`, text: `{"a":`, wantErr: "400 unexpected text response for schema A", opts: func(o *rest.Options) {
			o.Schema = &schema.Entity{Key: "A", Defaults: value.MustParse(`{"id":null}`)}
		}},
		{name: "process", status: 200, body: `{"a":1}`, text: `{"b":2}`, value: `{"b":2}`, opts: func(o *rest.Options) {
			o.Process = func(value.Value, value.Value) (value.Value, error) { return value.MustParse(`{"b":2}`), nil }
		}},
		{name: "process building its value", status: 200, body: `{"a":1}`, value: `{"b":2}`, opts: func(o *rest.Options) {
			o.Process = func(value.Value, value.Value) (value.Value, error) {
				return value.Obj(value.Member{Key: "b", Value: value.Num(2)}), nil
			}
		}},
		{name: "fetchText", status: 200, body: `{"a":1}`, text: `[{"id":1}]`, value: `[{"id":1}]`, opts: func(o *rest.Options) {
			o.FetchText = func(context.Context, *rest.Endpoint, value.Value, any) (string, error) { return `[{"id":1}]`, nil }
		}},
		{name: "fetchText, marked (undefined inside)", status: 200, body: `{"a":1}`, value: `{}`, opts: func(o *rest.Options) {
			o.FetchText = func(context.Context, *rest.Endpoint, value.Value, any) (string, error) {
				return "\x00{\"a\":0}\x00{\"a\":null}", nil
			}
		}},
		{name: "fetchText, nothing", status: 200, body: `{"a":1}`, value: ``, opts: func(o *rest.Options) {
			o.FetchText = func(context.Context, *rest.Endpoint, value.Value, any) (string, error) { return "", nil }
		}},
		{name: "fetchText, not JSON", status: 200, body: `{"a":1}`, text: `{"a":`, wantErr: "a: fetch: fetch result: ", opts: func(o *rest.Options) {
			o.FetchText = func(context.Context, *rest.Endpoint, value.Value, any) (string, error) { return `{"a":`, nil }
		}},
		{name: "fetch handing over JSON text", status: 200, body: `{"a":1}`, text: `[{"id": 1}]`, value: `[{"id":1}]`, opts: func(o *rest.Options) {
			o.Fetch = func(context.Context, *rest.Endpoint, value.Value, any) (value.Value, error) {
				return value.MustParse(` [{"id": 1}] `), nil
			}
		}},
		{name: "parseResponse", status: 200, body: `{"a":1}`, value: `"custom"`, opts: func(o *rest.Options) {
			o.ParseResponse = func(context.Context, *rest.Response) (value.Value, error) { return value.Str("custom"), nil }
		}},
		{name: "fetch", status: 200, body: `{"a":1}`, value: `"fetched"`, opts: func(o *rest.Options) {
			o.Fetch = func(context.Context, *rest.Endpoint, value.Value, any) (value.Value, error) {
				return value.Str("fetched"), nil
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := rest.Options{URLPrefix: "http://x.test", Path: "/a", Name: "a",
				Transport: transportFunc(func(context.Context, *rest.Request) (*rest.Response, error) {
					return &rest.Response{Status: tt.status, Body: []byte(tt.body)}, nil
				})}
			if tt.opts != nil {
				tt.opts(&o)
			}
			ep, err := rest.New(o)
			require.NoError(t, err)
			text, parse, err := ep.FetchBody(context.Background(), value.Obj(), nil)
			require.NoError(t, err)
			assert.Equal(t, tt.text, text)
			v, err := parse()
			fv, ferr := ep.Fetch(context.Background(), value.Obj(), nil)
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.wantErr)
				require.Error(t, ferr)
				assert.Equal(t, ferr.Error(), err.Error(), "the error Fetch gives")
				return
			}
			require.NoError(t, err)
			require.NoError(t, ferr)
			assert.Equal(t, tt.value, v.JSON())
			assert.Equal(t, fv.JSON(), v.JSON(), "the value Fetch gives")
		})
	}
}
