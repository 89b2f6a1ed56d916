package restserver

import "net/http"

// setCORS allows any origin, because browser tests load their page from the
// test runner's origin and call the fixture server on another port. The
// explicit Content-Type and Authorization next to "*" are for browsers that
// do not yet treat "*" as a wildcard in Access-Control-Allow-Headers, and
// Link is exposed so header-token pagination can be read from script.
func setCORS(h http.Header) {
	h.Set("Access-Control-Allow-Origin", "*")
	h.Set("Access-Control-Allow-Methods", "GET, POST, PUT, PATCH, DELETE, OPTIONS")
	h.Set("Access-Control-Allow-Headers", "*, Content-Type, Authorization")
	h.Set("Access-Control-Expose-Headers", "Link")
	h.Set("Access-Control-Max-Age", "600")
}
