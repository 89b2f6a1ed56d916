package controller_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/value"
)

// shelfOf returns a response of n Books, each with an Author (one per 10
// books), as JSON text.
func shelfOf(n int) string { return bookShelf(n, func(i int) int { return i / 10 }) }

// bookShelf returns a response of n Books as JSON text, book i by the Author
// author(i).
func bookShelf(n int, author func(i int) int) string {
	var sb strings.Builder
	sb.WriteByte('[')
	for i := range n {
		if i > 0 {
			sb.WriteByte(',')
		}
		a := author(i)
		fmt.Fprintf(&sb, `{"id":"%d","title":"book number %d","rev":%d,"author":{"id":"a%d","name":"author %d"}}`, i, i, i, a, a)
	}
	sb.WriteByte(']')
	return sb.String()
}

// benchReceive times what a controller pays to take text (a snapshot, a
// sync message) into a new controller with take, and to read the shelf
// back once, which must hold want books.
func benchReceive(b *testing.B, text string, take func(*controller.Controller, value.Value) error, want int) {
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		v, err := value.ParseString(text)
		if err != nil {
			b.Fatal(err)
		}
		c := controller.New(controller.Options{Now: newClock().Now})
		if err := take(c, v); err != nil {
			b.Fatal(err)
		}
		if r := c.GetResponse(shelfEndpoint(""), value.Obj()); r.Data.Len() != want {
			b.Fatalf("read %d books, want %d", r.Data.Len(), want)
		}
	}
}

// BenchmarkSyncSend: what storing a response of 1,000 Books (1,100
// entities) costs with a sync sink (the message made and encoded as JSON
// text, as the bridge posts it) and without one, side by side.
func BenchmarkSyncSend(b *testing.B) {
	data := value.MustParse(shelfOf(1000))
	for _, sink := range []bool{false, true} {
		b.Run(fmt.Sprintf("sink=%v", sink), func(b *testing.B) {
			c := controller.New(controller.Options{Now: newClock().Now})
			var n int
			if sink {
				c.OnSync(func(msg value.Value) { n += len(msg.JSON()) })
			}
			ep := shelfEndpoint("")
			b.ReportAllocs()
			for b.Loop() {
				if err := c.SetResponse(ep, value.Obj(), data); err != nil {
					b.Fatal(err)
				}
			}
			if sink {
				b.ReportMetric(float64(n)/float64(b.N), "msgbytes/op")
			}
		})
	}
}

// BenchmarkSyncApply: what the receiver pays for that message: parsing its
// text and applying it (ApplySync), then reading the list once.
func BenchmarkSyncApply(b *testing.B) {
	sender := controller.New(controller.Options{Now: newClock().Now})
	var text string
	sender.OnSync(func(msg value.Value) { text = msg.JSON() })
	require.NoError(b, sender.SetResponse(shelfEndpoint(""), value.Obj(), value.MustParse(shelfOf(1000))))
	benchReceive(b, text, (*controller.Controller).ApplySync, 1000)
}
