package value

import (
	"encoding/json"
	"strconv"
	"testing"

	"github.com/datafetch/datafetch/core/value/valuetest"
)

var benchSizes = []int{100, 1000, 10000}

func BenchmarkParse(b *testing.B) {
	for _, n := range benchSizes {
		data := valuetest.Articles(n, 1)
		b.Run("N="+strconv.Itoa(n), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Parse(data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkParseString parses input that is already a string, which saves
// Parse's one copy of the bytes.
func BenchmarkParseString(b *testing.B) {
	for _, n := range benchSizes {
		data := string(valuetest.Articles(n, 1))
		b.Run("N="+strconv.Itoa(n), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := ParseString(data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkParseLazy is BenchmarkParseString onto a tape: "scan" only
// parses, "walk" also builds every container, as a reader of all of it
// would.
func BenchmarkParseLazy(b *testing.B) {
	for _, n := range benchSizes {
		data := string(valuetest.Articles(n, 1))
		b.Run("scan/N="+strconv.Itoa(n), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := ParseLazy(data); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("walk/N="+strconv.Itoa(n), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				v, err := ParseLazy(data)
				if err != nil {
					b.Fatal(err)
				}
				walkAll(v)
			}
		})
	}
}

// walkAll builds every container of v.
func walkAll(v Value) {
	for _, e := range v.Elems() {
		walkAll(e)
	}
	for _, m := range v.Members() {
		walkAll(m.Value)
	}
}

// BenchmarkEncodingJSON is the yardstick for BenchmarkParse: the standard
// library decoding the same bytes into any.
func BenchmarkEncodingJSON(b *testing.B) {
	for _, n := range benchSizes {
		data := valuetest.Articles(n, 1)
		b.Run("N="+strconv.Itoa(n), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				var x any
				if err := json.Unmarshal(data, &x); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkAppendJSON(b *testing.B) {
	for _, n := range benchSizes {
		data := valuetest.Articles(n, 1)
		v, err := Parse(data)
		if err != nil {
			b.Fatal(err)
		}
		buf := make([]byte, 0, len(data))
		b.Run("N="+strconv.Itoa(n), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				buf = AppendJSON(buf[:0], v)
			}
		})
	}
}

func BenchmarkEqual(b *testing.B) {
	data := valuetest.Articles(1000, 1)
	x, y := MustParse(string(data)), MustParse(string(data))
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if !Equal(x, y) {
			b.Fatal("not equal")
		}
	}
}
