package resources_test

import "net/http"

// httpStrip mounts h under prefix, as the demo server does.
func httpStrip(prefix string, h http.Handler) http.Handler {
	mux := http.NewServeMux()
	mux.Handle(prefix+"/", http.StripPrefix(prefix, h))
	return mux
}
