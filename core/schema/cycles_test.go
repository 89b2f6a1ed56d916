package schema_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
)

// Cyclic entity graphs (issue 22 point 1): a read is a tree that shows a
// cycle back to an entity on its path as that entity's record, nested
// entities as keys; CycleCut tells such a cut from the entity it stands
// for, which the JavaScript bridge refers back to, making an object graph.

// reports returns data-client's User ⇄ Report, the schemas assigned after
// both entities exist.
func reports() (user, report *schema.Entity) {
	user = &schema.Entity{Key: "User", Defaults: value.MustParse(`{"id":null,"role":"","tags":[],"reports":[]}`)}
	report = &schema.Entity{Key: "Report", Defaults: value.MustParse(`{"id":null,"title":"","draftedBy":null,"publishedBy":null}`)}
	user.Schema = map[string]schema.Schema{"reports": schema.ArrayOf(report)}
	report.Schema = map[string]schema.Schema{"draftedBy": user, "publishedBy": user}
	return user, report
}

const weekly = `{"id":"123","title":"Weekly report",
	"draftedBy":{"id":"456","role":"manager","tags":["a"],"reports":[{"id":"123","title":"Weekly report","draftedBy":"456","publishedBy":"456"}]},
	"publishedBy":"456"}`

func TestCycleCut(t *testing.T) {
	user, report := reports()
	st, res := fill(t, report, weekly)
	r, status := schema.Denormalize(report, res, st, nil, st.Version())
	require.Equal(t, schema.Found, status)
	drafter := r.Get("draftedBy")
	cut := drafter.Get("reports").Elems()[0]
	assert.JSONEq(t, `{"id":"123","title":"Weekly report","draftedBy":"456","publishedBy":"456"}`, cut.JSON(),
		"the tree shows the cycle back to the report as its record")

	assert.True(t, report.CycleCut(cut, r), "the cut stands for the report")
	assert.False(t, report.CycleCut(r, r.Get("draftedBy")), "not of another entity's record")
	assert.False(t, user.CycleCut(drafter, r), "not of another entity")

	other, status := schema.Denormalize(report, value.Str("123"), st, nil, st.Version())
	require.Equal(t, schema.Found, status)
	assert.True(t, report.CycleCut(cut, other), "a read of the same record in another pass")
	st2, res2 := fill(t, report, `{"id":"124","title":"Weekly report","draftedBy":null,"publishedBy":null}`)
	r2, _ := schema.Denormalize(report, res2, st2, nil, st2.Version())
	assert.False(t, report.CycleCut(cut, r2), "another record: another key")
	for _, v := range []value.Value{value.Str("123"), value.NullV, value.Undef, value.Obj()} {
		assert.False(t, report.CycleCut(v, r), "%s is no record", v.JSON())
	}
}

// A computed primary key changes nothing: the cut is told by its members.
func TestCycleCutComputedPK(t *testing.T) {
	node := &schema.Entity{Key: "Node", Defaults: value.MustParse(`{"a":"","b":"","next":null}`),
		PKFunc: func(rec, _ value.Value, _ string, _ value.Value) (string, bool, error) {
			return rec.Get("a").Str() + "-" + rec.Get("b").Str(), true, nil
		}}
	node.Schema = map[string]schema.Schema{"next": node}
	st, res := fill(t, node, `{"a":"x","b":"1","next":{"a":"x","b":"2","next":"x-1"}}`)
	v, _ := schema.Denormalize(node, res, st, nil, st.Version())
	next := v.Get("next")
	assert.True(t, node.CycleCut(next.Get("next"), v))
	assert.False(t, node.CycleCut(next.Get("next"), next))
}

// Nested fields are read in the order of the record's members (Defaults
// first), not of their names: a value read around a cycle, which other
// positions of the read share, is built where a reader walking the members
// in order meets it first, with each cut below the entity it stands for.
func TestCyclesReadInMemberOrder(t *testing.T) {
	user, report := reports()
	comment := &schema.Entity{Key: "Comment", Defaults: value.MustParse(`{"id":null,"report":null,"author":null}`),
		Schema: map[string]schema.Schema{"author": user, "report": report}}
	assert.Equal(t, []string{"report", "author"}, fieldNames(comment.Fields()), "the order of Defaults")
	extra := &schema.Entity{Key: "X", Defaults: value.MustParse(`{"id":null,"m":null}`),
		Schema: map[string]schema.Schema{"z": user, "m": user, "b": user}}
	assert.Equal(t, []string{"m", "b", "z"}, fieldNames(extra.Fields()), "Defaults' fields first, then the others by name")

	st, res := fill(t, comment, `{"id":"9","report":`+weekly+`,"author":"456"}`)
	v, _ := schema.Denormalize(comment, res, st, nil, st.Version())
	// The report, met first, is read in full; the author, read around it,
	// holds the report cut.
	assert.Equal(t, "manager", v.Get("report").Get("draftedBy").Get("role").Str())
	assert.Equal(t, "manager", v.Get("author").Get("role").Str())
	assert.True(t, value.Same(v.Get("author"), v.Get("report").Get("draftedBy")), "the author is the report's drafter, read once")
	assert.True(t, report.CycleCut(v.Get("author").Get("reports").Elems()[0], v.Get("report")))

	// An Object schema's members are read in the order the value has them.
	both := &schema.Object{Fields: []schema.Field{{Name: "users", Schema: schema.ArrayOf(user)}, {Name: "reports", Schema: schema.ArrayOf(report)}}}
	st, res = fill(t, both, `{"reports":[`+weekly+`],"users":["456"]}`)
	v, _ = schema.Denormalize(both, res, st, nil, st.Version())
	r := v.Get("reports").Elems()[0]
	assert.True(t, value.Same(v.Get("users").Elems()[0], r.Get("draftedBy")), "the user is read inside the report, met first")
	assert.True(t, report.CycleCut(r.Get("draftedBy").Get("reports").Elems()[0], r))
}

func fieldNames(fs []schema.Field) []string {
	names := make([]string, len(fs))
	for i, f := range fs {
		names[i] = f.Name
	}
	return names
}
