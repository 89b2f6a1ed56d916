// Package valuetest makes deterministic JSON test data shaped like a real API
// response, for tests and benchmarks across datafetch's packages.
package valuetest

import (
	"math/rand/v2"
	"strconv"
)

// Authors is how many distinct authors Articles shares among its articles,
// so normalizing caches see many references to few entities.
const Authors = 20

var authorNames = [Authors]string{
	"Ada Lovelace", "Alan Turing", "Grace Hopper", "Edsger Dijkstra",
	"Barbara Liskov", "Donald Knuth", "Frances Allen", "Ken Thompson",
	"Margaret Hamilton", "Dennis Ritchie", "Radia Perlman", "John McCarthy",
	"Hedy Lamarr", "Tony Hoare", "Karen Spärck Jones", "Niklaus Wirth",
	"Sophie Wilson", "Rob Pike", "Adele Goldberg", "Leslie Lamport",
}

var tagNames = [...]string{
	"go", "wasm", "json", "cache", "react", "graphql",
	"rest", "performance", "tutorial", "release", "opinion", "security",
}

var words = [...]string{
	"the", "data", "cache", "request", "response", "entity", "normalized",
	"client", "server", "fetch", "render", "component", "state", "update",
	"query", "mutation", "list", "detail", "author", "article", "fast",
	"simple", "memory", "network", "latency", "schema", "value", "store",
	"of", "and", "to", "in", "with", "for", "a", "is", "on", "that",
}

// Articles returns a JSON array of n articles, each about 500 bytes with a
// content of about 370 characters:
//
//	{"id":1,"title":"…","content":"…","published":true,
//	 "author":{"id":7,"name":"…"},"tags":["go","wasm"]}
//
// Article ids run from 1 to n; authors are drawn from Authors shared ones.
// Some strings hold escapes (\" and \n) and non-ASCII text, as real content
// does. The same n and seed always give the same bytes.
func Articles(n int, seed int64) []byte {
	rng := rand.New(rand.NewPCG(uint64(seed), 0x9e3779b97f4a7c15))
	b := make([]byte, 0, n*560+2)
	b = append(b, '[')
	for i := range n {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"id":`...)
		b = strconv.AppendInt(b, int64(i+1), 10)

		b = append(b, `,"title":"`...)
		b = appendSentence(b, rng, 20+rng.IntN(20), false)

		b = append(b, `","content":"`...)
		b = appendSentence(b, rng, 330+rng.IntN(60), true)

		b = append(b, `","published":`...)
		b = strconv.AppendBool(b, rng.IntN(4) != 0)

		a := rng.IntN(Authors)
		b = append(b, `,"author":{"id":`...)
		b = strconv.AppendInt(b, int64(a+1), 10)
		b = append(b, `,"name":"`...)
		b = append(b, authorNames[a]...)

		b = append(b, `"},"tags":[`...)
		for t := range 1 + rng.IntN(4) {
			if t > 0 {
				b = append(b, ',')
			}
			b = append(b, '"')
			b = append(b, tagNames[rng.IntN(len(tagNames))]...)
			b = append(b, '"')
		}
		b = append(b, "]}"...)
	}
	return append(b, ']')
}

// appendSentence appends about size bytes of words, already JSON-escaped.
// With rich set, it sprinkles in the escapes and non-ASCII text that real
// article bodies contain.
func appendSentence(b []byte, rng *rand.Rand, size int, rich bool) []byte {
	start := len(b)
	for len(b)-start < size {
		if len(b) > start {
			b = append(b, ' ')
		}
		if rich {
			switch rng.IntN(40) {
			case 0:
				b = append(b, `\"quoted\"`...)
				continue
			case 1:
				b = append(b, `end.\n\nNew`...)
				continue
			case 2:
				b = append(b, "café"...)
				continue
			}
		}
		b = append(b, words[rng.IntN(len(words))]...)
	}
	return b
}
