package schema_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
)

// An entity's PKFunc and Process get the args of the request whose
// response is normalized (data-client's pk(value, parent, key, args) and
// process(input, parent, key, args)): [params], or [params, body].
func TestPKAndProcessGetTheRequestArgs(t *testing.T) {
	params, body := value.MustParse(`{"org":"acme"}`), value.MustParse(`{"draft":true}`)
	cases := []struct {
		name string
		args schema.Args
		want string
	}{
		{"no args", schema.Args{}, `[]`},
		{"params", schema.Args{Params: params}, `[{"org":"acme"}]`},
		{"params and body", schema.Args{Params: params, Body: body}, `[{"org":"acme"},{"draft":true}]`},
		{"body only", schema.Args{Body: body}, `[null,{"draft":true}]`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var pkArgs, processArgs []string
			e := &schema.Entity{
				Key:      "Member",
				Defaults: value.MustParse(`{"id":null}`),
				PKFunc: func(rec, _ value.Value, _ string, args value.Value) (string, bool, error) {
					pkArgs = append(pkArgs, args.JSON())
					id, _ := rec.Get("id").Text()
					org := ""
					if el := args.Elems(); len(el) > 0 {
						org = el[0].Get("org").Str()
					}
					return id + "@" + org, true, nil
				},
				Process: func(rec, _ value.Value, _ string, args value.Value) (value.Value, error) {
					processArgs = append(processArgs, args.JSON())
					return rec, nil
				},
			}
			n, err := schema.NormalizeArgs(schema.ArrayOf(e), value.MustParse(`[{"id":1},{"id":2}]`), c.args)
			require.NoError(t, err)
			assert.Equal(t, []string{c.want, c.want}, pkArgs, "pk args")
			assert.Equal(t, []string{c.want, c.want}, processArgs, "process args")
			org := c.args.Params.Get("org").Str()
			assert.JSONEq(t, `["1@`+org+`","2@`+org+`"]`, n.Result.JSON())
		})
	}
}

// A read inferred from params (PKFromParams) calls PKFunc with the params
// as its args, as data-client's queryKey calls pk with the read's args.
func TestPKFromParamsPassesParamsAsArgs(t *testing.T) {
	var got string
	e := &schema.Entity{Key: "Doc", Defaults: value.MustParse(`{"id":null}`),
		PKFunc: func(rec, _ value.Value, _ string, args value.Value) (string, bool, error) {
			got = args.JSON()
			return rec.Get("id").Str(), true, nil
		}}
	pk, ok := e.PKFromParams(value.MustParse(`{"id":"a"}`))
	require.True(t, ok)
	assert.Equal(t, "a", pk)
	assert.JSONEq(t, `[{"id":"a"}]`, got)
}

// A primary key that reads "undefined" (a pk() that serializes a missing
// field, `${this.name}`) is no key, as in data-client: normalizing refuses
// the record, naming the entity, the place and how the key was found.
func TestUndefinedPKIsNoPK(t *testing.T) {
	byFunc := &schema.Entity{Key: "Named", Defaults: value.MustParse(`{"name":""}`),
		PKFunc: func(rec, _ value.Value, _ string, _ value.Value) (string, bool, error) {
			v := rec.Get("name")
			if v.IsUndefined() {
				return "undefined", true, nil
			}
			return v.Str(), true, nil
		}}
	byField := &schema.Entity{Key: "Slugged", PK: "slug", Defaults: value.MustParse(`{"slug":""}`)}
	cases := []struct {
		name string
		s    schema.Schema
		in   string
		want []string
	}{
		{"pk function", byFunc, `{"secondthing":"hi"}`, []string{"Named", "$", "no primary key", "pk() returned none"}},
		{"pk function in a list", schema.ArrayOf(byFunc), `[{"name":"a"},{"other":1}]`, []string{"Named", "$[1]", "no primary key"}},
		{"pk field", byField, `{"slug":"undefined"}`, []string{"Slugged", "$", "no primary key", `field "slug"`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := schema.Normalize(c.s, value.MustParse(c.in))
			require.Error(t, err)
			require.ErrorIs(t, err, schema.ErrNoPK)
			for _, w := range c.want {
				assert.Contains(t, err.Error(), w)
			}
		})
	}
	// Optimistic records without a key get a temporary one instead.
	n, err := schema.NormalizeArgs(byFunc, value.MustParse(`{"x":1}`), schema.Args{Optimistic: true})
	require.NoError(t, err)
	assert.True(t, schema.IsTemporaryPK(n.Result.Str()))
}

// A Process hook's error is wrapped, not only quoted: what it carries (a
// JavaScript exception with data-client's status 400 for validate) reaches
// the caller through errors.As.
func TestProcessErrorIsWrapped(t *testing.T) {
	refused := errors.New("validate: name is required")
	e := &schema.Entity{Key: "Named", Defaults: value.MustParse(`{"id":null,"name":""}`),
		Process: func(rec, _ value.Value, _ string, _ value.Value) (value.Value, error) {
			if rec.Get("name").IsUndefined() {
				return value.Undef, refused
			}
			return rec, nil
		}}
	_, err := schema.Normalize(schema.ArrayOf(e), value.MustParse(`[{"id":1,"name":"a"},{"id":2}]`))
	require.ErrorIs(t, err, refused)
	assert.Equal(t, `normalize Named at $[1]: process: validate: name is required`, err.Error())
}
