package encode

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// idTable holds what a map holds through any sequence of sets and
// deletions, with ids that collide (close addresses, a small table) and
// deletions in the middle of probe runs.
func TestIDTableAgreesWithAMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	ents := make([]identity, 64)
	var m idTable
	want := map[uintptr]*identity{}
	for step := range 5000 {
		id := uintptr(0xc000010000 + 16*rng.IntN(300))
		switch {
		case want[id] == nil:
			ent := &ents[rng.IntN(len(ents))]
			m.set(id, ent)
			want[id] = ent
		case rng.IntN(2) == 0:
			m.del(id)
			delete(want, id)
		}
		if step%997 == 0 {
			m.del(0xdead) // absent: no change
		}
		require.Equal(t, len(want), m.len(), "step %d", step)
		for k, v := range want {
			require.Same(t, v, m.get(k), "step %d: id %x", step, k)
		}
		require.Nil(t, m.get(0xbeef), "step %d", step)
	}
	m.clear()
	require.Zero(t, m.len())
	for k := range want {
		require.Nil(t, m.get(k))
	}
}

func BenchmarkIDTable(b *testing.B) {
	ids := make([]uintptr, 1000)
	ents := make([]identity, len(ids))
	for i := range ids {
		ids[i] = uintptr(0xc000010000 + 72*i)
	}
	b.Run("idTable", func(b *testing.B) {
		for b.Loop() {
			var m idTable
			m.reserve(len(ids))
			for i, id := range ids {
				m.set(id, &ents[i])
			}
			for range 3 {
				for _, id := range ids {
					if m.get(id) == nil {
						b.Fatal("lost")
					}
				}
			}
			for _, id := range ids {
				m.del(id)
			}
		}
	})
	b.Run("map", func(b *testing.B) {
		for b.Loop() {
			m := make(map[uintptr]*identity, len(ids))
			for i, id := range ids {
				m[id] = &ents[i]
			}
			for range 3 {
				for _, id := range ids {
					if m[id] == nil {
						b.Fatal("lost")
					}
				}
			}
			for _, id := range ids {
				delete(m, id)
			}
		}
	})
}
