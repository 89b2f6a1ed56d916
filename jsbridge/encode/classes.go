package encode

import (
	"maps"
	"sync"
	"sync/atomic"

	"github.com/datafetch/datafetch/core/schema"
)

// Entities declared in JavaScript as classes (class Todo extends Entity)
// are read as instances of their class: the encoder marks each such
// entity's object with the number JavaScript gave the class (wire.OpClass),
// and the decoder builds it with that class's prototype. The numbers are
// JavaScript's (internal/classes.mjs); Go only carries them.
var entityClasses struct {
	mu sync.Mutex // serializes writers; readers load the map
	// of is copied on write: entities are declared a few times in a
	// program's life, and read on every entity position of every read.
	of atomic.Pointer[map[*schema.Entity]uint32]
}

// SetEntityClass records that reads of e are instances of class c (0:
// plain objects).
func SetEntityClass(e *schema.Entity, c uint32) {
	entityClasses.mu.Lock()
	defer entityClasses.mu.Unlock()
	next := map[*schema.Entity]uint32{}
	if old := entityClasses.of.Load(); old != nil {
		next = maps.Clone(*old)
	}
	if c == 0 {
		delete(next, e)
	} else {
		next[e] = c
	}
	entityClasses.of.Store(&next)
}

// entityClass returns the class of e's reads; 0 for plain objects.
func entityClass(e *schema.Entity) uint32 {
	m := entityClasses.of.Load()
	if m == nil || e == nil {
		return 0
	}
	return (*m)[e]
}
