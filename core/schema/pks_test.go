package schema_test

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/datafetch/datafetch/core/schema"
)

func TestSortPKs(t *testing.T) {
	tests := []struct {
		name string
		pks  []string
		want []string
	}{
		{"numbers by value", []string{"10", "9", "100", "0"}, []string{"0", "9", "10", "100"}},
		{"numbers before strings", []string{"b", "2", "a", "1"}, []string{"1", "2", "a", "b"}},
		{"leading zero and sign are strings", []string{"042", "-1", "42", "7"}, []string{"7", "42", "-1", "042"}},
		{"beyond uint64 is a string", []string{"18446744073709551616", "18446744073709551615"}, []string{"18446744073709551615", "18446744073709551616"}},
		{"empty pk is a string", []string{"x", "", "3"}, []string{"3", "", "x"}},
		{"none", []string{}, []string{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := slices.Clone(tc.pks)
			schema.SortPKs(got)
			assert.Equal(t, tc.want, got)
		})
	}
}

// TestSortPKsIsComparePKsOrder holds SortPKs to the order ComparePKs
// defines, over pks of every kind.
func TestSortPKsIsComparePKsOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		pks := randomPKs(r, r.IntN(60))
		want := slices.Clone(pks)
		slices.SortFunc(want, schema.ComparePKs)
		schema.SortPKs(pks)
		assert.Equal(t, want, pks)
	}
}

func randomPKs(r *rand.Rand, n int) []string {
	pks := make([]string, n)
	for i := range pks {
		switch r.IntN(5) {
		case 0:
			pks[i] = strconv.Itoa(r.IntN(50))
		case 1:
			pks[i] = "0" + strconv.Itoa(r.IntN(20))
		case 2:
			pks[i] = "u" + strconv.Itoa(r.IntN(30))
		case 3:
			pks[i] = strconv.FormatUint(r.Uint64(), 10)
		default:
			pks[i] = ""
		}
	}
	return pks
}

// BenchmarkSortPKs sorts the pks of a table of n articles as All's read
// does, against sorting them with ComparePKs.
func BenchmarkSortPKs(b *testing.B) {
	for _, n := range []int{500, 10000} {
		pks := make([]string, n)
		for i := range pks {
			pks[i] = strconv.Itoa(i + 1)
		}
		r := rand.New(rand.NewPCG(3, 4))
		r.Shuffle(len(pks), func(i, j int) { pks[i], pks[j] = pks[j], pks[i] })
		work := make([]string, n)
		b.Run("SortPKs/N="+strconv.Itoa(n), func(b *testing.B) {
			for b.Loop() {
				copy(work, pks)
				schema.SortPKs(work)
			}
		})
		b.Run("ComparePKs/N="+strconv.Itoa(n), func(b *testing.B) {
			for b.Loop() {
				copy(work, pks)
				slices.SortFunc(work, schema.ComparePKs)
			}
		})
	}
}
