package controller

// SetReapply turns on or off storing a response whose text the store holds
// again without parsing it, for tests that compare the two ways.
func SetReapply(c *Controller, on bool) {
	c.noReapply.Store(!on)
}

// Reapplied returns how many responses c stored again from their text
// alone, unparsed.
func Reapplied(c *Controller) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.reapplied
}

// ReappliedElems returns how many responses c stored by normalizing the one
// element of their list that differed from the text the store held.
func ReappliedElems(c *Controller) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.reappliedElems
}

// GuardsReads reports whether c's reads tell it when they run caller code
// (see ErrReadCallback), which Options.ReadCallbacksGuarded turns off.
func GuardsReads(c *Controller) bool { return c.st.OnCallerCode != nil }
