package schema

// KeepRepeats makes Normalize list every occurrence of a record, as it did
// before it left out repeats (normalizer.repeats), until the returned
// function is called: what the writes store must not differ.
func KeepRepeats() (restore func()) {
	keepRepeats.Store(true)
	return func() { keepRepeats.Store(false) }
}
