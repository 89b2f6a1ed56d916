package encode

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/jsbridge/wire"
)

// Cyclic entity graphs (issue 22 point 1): a read crosses as an object
// graph, each record cut at a cycle written as a reference back to the
// entity it is the record of (wire.OpBackRef), as data-client's
// denormalize gives report === report.draftedBy.reports[0].

// reportsFixture is data-client's User ⇄ Report, schemas assigned after
// both entities exist.
func reportsFixture() (*fixture, *schema.Entity, *schema.Entity) {
	f := newFixture()
	user := &schema.Entity{Key: "User", Defaults: value.MustParse(`{"id":null,"role":"","reports":[]}`)}
	report := &schema.Entity{Key: "Report", Defaults: value.MustParse(`{"id":null,"title":"","draftedBy":null,"publishedBy":null}`)}
	user.Schema = map[string]schema.Schema{"reports": schema.ArrayOf(report)}
	report.Schema = map[string]schema.Schema{"draftedBy": user, "publishedBy": user}
	return f, user, report
}

const weeklyReport = `{"id":"123","title":"Weekly report",
	"draftedBy":{"id":"456","role":"manager","reports":[{"id":"123","title":"Weekly report","draftedBy":"456","publishedBy":"456"}]},
	"publishedBy":"456"}`

func obj(v any) map[string]any { return v.(map[string]any) }

func TestEncodeCycleIsAnObjectGraph(t *testing.T) {
	f, _, report := reportsFixture()
	f.store(t, "r", report, weeklyReport, 1)
	got, out := f.read(t, "r", report)

	r := obj(got)
	drafted := obj(r["draftedBy"])
	assert.True(t, same(r["publishedBy"], r["draftedBy"]), "publishedBy and draftedBy are one user: %s", out)
	assert.True(t, same(drafted["reports"].([]any)[0], got), "report === report.draftedBy.reports[0]: %s", out)
	assert.Equal(t, 1, out.Counts[wire.OpBackRef], "one back-reference: %s", out)
	assert.Equal(t, "manager", drafted["role"])

	again, out := f.read(t, "r", report)
	assert.True(t, out.only(wire.OpRef), "an unchanged re-read is one ref: %s", out)
	assert.True(t, same(got, again))
}

func TestEncodeCycleMemberChangedIsANewGraph(t *testing.T) {
	f, user, report := reportsFixture()
	f.store(t, "r", report, weeklyReport, 1)
	before, _ := f.read(t, "r", report)
	f.store(t, "u", user, `{"id":"456","role":"director"}`, 2)
	after, out := f.read(t, "r", report)

	require.False(t, same(before, after), "the report reaches the changed user: a new object")
	a := obj(after)
	assert.Equal(t, "director", obj(a["draftedBy"])["role"])
	assert.True(t, same(obj(a["draftedBy"])["reports"].([]any)[0], after), "the new graph is cyclic: %s", out)
	assert.True(t, same(obj(obj(before)["draftedBy"])["reports"].([]any)[0], before), "the old graph is as it was")
	assert.Equal(t, "manager", obj(obj(before)["draftedBy"])["role"])
	assert.Equal(t, f.ids.entries.len(), f.dec.held(), "both halves hold the same ids")
}

// A record cut at a cycle is met, in writing order, below the entity it is
// the record of, whatever the order of the nested fields' names: here the
// comment's report (written first) is built before its author, which the
// report reaches.
func TestEncodeCycleSharedInMemberOrder(t *testing.T) {
	f, user, report := reportsFixture()
	comment := &schema.Entity{Key: "Comment", Defaults: value.MustParse(`{"id":null,"report":null,"author":null}`),
		Schema: map[string]schema.Schema{"author": user, "report": report}}
	f.store(t, "c", comment, `{"id":"9","report":`+weeklyReport+`,"author":"456"}`, 1)
	got, out := f.read(t, "c", comment)

	c := obj(got)
	r := obj(c["report"])
	assert.True(t, same(r["draftedBy"], c["author"]), "the comment's author is the report's drafter: %s", out)
	assert.True(t, same(obj(c["author"])["reports"].([]any)[0], c["report"]), "the author's report is the comment's: %s", out)
}

func TestEncodeSelfReferentialTree(t *testing.T) {
	f := newFixture()
	node := &schema.Entity{Key: "Node", Defaults: value.MustParse(`{"id":null,"parent":null,"children":[]}`)}
	node.Schema = map[string]schema.Schema{"children": schema.ArrayOf(node), "parent": node}
	f.store(t, "root", node, `{"id":1,"parent":null,"children":[
		{"id":2,"parent":1,"children":[{"id":4,"parent":2,"children":[]}]},
		{"id":3,"parent":1,"children":[]}]}`, 1)
	got, out := f.read(t, "root", node)

	root := obj(got)
	kids := root["children"].([]any)
	require.Len(t, kids, 2, "%s", out)
	for _, k := range kids {
		assert.True(t, same(obj(k)["parent"], got), "child %v's parent is the root: %s", obj(k)["id"], out)
	}
	grandchild := obj(obj(kids[0])["children"].([]any)[0])
	assert.True(t, same(grandchild["parent"], kids[0]), "the grandchild's parent is child 2")
	assert.Nil(t, root["parent"])
}

// An entity of a kept list rewritten over the one JavaScript holds
// (wire.OpOver) can be the entity a cycle comes back to.
func TestEncodeCycleThroughOver(t *testing.T) {
	f := newFixture()
	node := &schema.Entity{Key: "Ring", Defaults: value.MustParse(`{"id":null,"a":0,"b":0,"c":0,"name":"","next":null}`)}
	node.Schema = map[string]schema.Schema{"next": node}
	list := schema.ArrayOf(node)
	f.store(t, "ring", list, `[{"id":1,"name":"one","next":{"id":2,"name":"two","next":1}},{"id":2}]`, 1)
	before, _ := f.read(t, "ring", list)
	b := before.([]any)
	require.True(t, same(obj(obj(b[0])["next"])["next"], b[0]), "a ring of two")
	require.True(t, same(obj(b[0])["next"], b[1]))

	f.store(t, "one", node, `{"id":1,"name":"uno"}`, 2)
	after, out := f.read(t, "ring", list)
	a := after.([]any)
	assert.Equal(t, 1, out.Counts[wire.OpOver], "entity 1 is rewritten over the one held: %s", out)
	assert.Equal(t, "uno", obj(a[0])["name"])
	assert.True(t, same(obj(obj(a[0])["next"])["next"], a[0]), "the ring closes on the new entity 1: %s", out)
	assert.True(t, same(obj(a[0])["next"], a[1]))
	assert.False(t, same(a[1], b[1]), "entity 2 reaches the changed entity 1: a new object")
}

// A cycle deeper than the encoder keeps (maxOpen entities) is shown as Go
// reads it, the record with its nested entities as keys: still a read.
func TestEncodeCycleBeyondMaxOpenIsATree(t *testing.T) {
	f := newFixture()
	node := &schema.Entity{Key: "Link", Defaults: value.MustParse(`{"id":null,"next":null}`)}
	node.Schema = map[string]schema.Schema{"next": node}
	deep := maxOpen + 5
	// 0 → 1 → ... → deep → deep-1: a cycle of two, below maxOpen others.
	data := `{"id":` + strconv.Itoa(deep) + `,"next":` + strconv.Itoa(deep-1) + `}`
	for i := deep - 1; i >= 0; i-- {
		data = `{"id":` + strconv.Itoa(i) + `,"next":` + data + `}`
	}
	f.store(t, "chain", node, data, 1)
	got, out := f.read(t, "chain", node)
	assert.Equal(t, 0, out.Counts[wire.OpBackRef], "%s", out)
	n := obj(got)
	for range deep + 1 {
		n = obj(n["next"])
	}
	// deep's next, deep-1, cut: its record, next as a key.
	assert.Equal(t, map[string]any{"id": float64(deep - 1), "next": strconv.Itoa(deep)}, n, "the cut shown as its record")
}
