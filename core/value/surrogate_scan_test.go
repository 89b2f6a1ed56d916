package value

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestSurrogateAtFindsTheFirst checks the word-at-a-time search against a
// byte-by-byte one, on strings dense in the bytes that matter (0xED, the
// surrogate and Hangul second bytes, continuation bytes) at every offset.
func TestSurrogateAtFindsTheFirst(t *testing.T) {
	naive := func(s string) int {
		for i := range len(s) {
			if isSurrogateBytes(s, i) {
				return i
			}
		}
		return -1
	}
	alphabet := []byte{0xED, 0xA0, 0xBF, 0x9F, 0x80, 'a', '"', 0xC0}
	r := rand.New(rand.NewPCG(1, 2))
	for n := range 20000 {
		b := make([]byte, r.IntN(40))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		s := string(b)
		if got, want := surrogateAt(s), naive(s); got != want {
			t.Fatalf("case %d: surrogateAt(%q) = %d, want %d", n, s, got, want)
		}
	}
	hangul := strings.Repeat("한", 100)
	if surrogateAt(hangul) != -1 || surrogateAt(hangul+"\xed\xa0\x80") != len(hangul) {
		t.Fatal("Hangul text is not a surrogate; a surrogate after it is found")
	}
}
