package store

import "github.com/datafetch/datafetch/core/schema"

// Entity tables as a whole, for reads that list one (schema.All): a
// version per table that moves with every visible change to it, and its
// pks in order, sorted once per version.

// tableIndex is what the store keeps per entity type for TablePKs.
type tableIndex struct {
	version uint64
	// members moves when an entity joins or leaves the table; pks is
	// sorted at members (nil until asked for), as sorted records.
	members, sorted uint64
	pks             []string
}

// tableChanged records a visible change to the table of key, after
// s.version moved: the table's version is the store's. joined is set when
// an entity joined or left it.
func (s *Store) tableChanged(key string, joined bool) {
	// Writes come in runs of one type: compare with the last key (most
	// often the very same string) before hashing it.
	if t := s.lastIdx; t != nil && s.lastIdxKey == key {
		t.version = s.version
		if joined {
			t.members = s.version
		}
		return
	}
	if s.tableIdx == nil {
		s.tableIdx = map[string]*tableIndex{}
	}
	t := s.tableIdx[key]
	if t == nil {
		t = &tableIndex{}
		s.tableIdx[key] = t
	}
	t.version = s.version
	if joined {
		t.members = s.version
	}
	s.lastIdx, s.lastIdxKey = t, key
}

// TableVersion changes whenever an entity of type key is stored, changed
// or removed (a reset included), and never returns to an earlier value.
func (s *Store) TableVersion(key string) uint64 {
	if t := s.tableIdx[key]; t != nil {
		return t.version
	}
	return s.tableFloor
}

// TablePKs returns the pks of the visible entities of type key, deleted
// ones included, in schema.ComparePKs order. The list is the store's:
// callers must not change it. It is sorted again only after an entity
// joined or left the table, not when one changed.
func (s *Store) TablePKs(key string) []string {
	byPK := s.entities[key]
	if len(byPK) == 0 {
		return nil
	}
	t := s.tableIdx[key]
	if t == nil {
		t = &tableIndex{version: s.tableFloor, members: s.tableFloor}
		if s.tableIdx == nil {
			s.tableIdx = map[string]*tableIndex{}
		}
		s.tableIdx[key] = t
	}
	if t.pks != nil && t.sorted == t.members && len(t.pks) == len(byPK) {
		return t.pks
	}
	pks := make([]string, 0, len(byPK))
	for pk := range byPK {
		pks = append(pks, pk)
	}
	schema.SortPKs(pks)
	t.pks, t.sorted = pks, t.members
	return pks
}

var _ schema.TableSource = (*Store)(nil)
