//go:build !js

// Command server runs the datafetch demo on one local address: the go-app
// demo (pre-rendered pages and app.wasm), the plain-JS page index.html,
// the React example (web/demo/react, built) at /react/, the JavaScript
// package dist/, and the in-memory REST API of package sampleapi
// under /rest/, which both demos talk to.
//
// Usage:
//
//	server [-addr 127.0.0.1:8080] [-root .] [-wasm web/build/app.wasm] [-react web/build/react]
//
// root is the repository root, holding index.html and dist/; wasm defaults
// to web/build/app.wasm under root, react (the built React example, served
// at /react/) to web/build/react under root. The server prints its URL once it
// listens (use -addr 127.0.0.1:0 for a random port) and stops on SIGINT
// or SIGTERM. `./build.sh serve` builds everything and runs it.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// shutdownTimeout bounds how long the server waits for open requests.
const shutdownTimeout = 3 * time.Second

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("server", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on (port 0 picks a free one)")
	root := fs.String("root", ".", "repository root, holding index.html and dist/")
	wasm := fs.String("wasm", "", "the demo's app.wasm (default: <root>/web/build/app.wasm)")
	react := fs.String("react", "", "the built React example, served at /react/ (default: <root>/web/build/react)")
	tick := fs.Duration("tick", 1500*time.Millisecond, "how often the live page's prices change while it is open (0: only when told, POST /rest/_control/tick)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "server: unexpected arguments %q\n", fs.Args())
		return 2
	}
	if *wasm == "" {
		*wasm = filepath.Join(*root, "web", "build", "app.wasm")
	}
	d, err := newDemo(config{root: *root, wasm: *wasm, react: *react, tick: *tick, log: stderr})
	if err != nil {
		fmt.Fprintf(stderr, "server: %v\n", err)
		return 1
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(stderr, "server: %v\n", err)
		return 1
	}
	url := "http://" + ln.Addr().String()
	fmt.Fprintf(stdout, "datafetch demo on %s/\n", url)
	fmt.Fprintf(stdout, "  plain-JS page %s/index.html, React example %s%s, live prices %s%s, REST API %s%s/\n", url, url, reactPath, url, livePath, url, apiPath)

	srv := &http.Server{Handler: d, ReadHeaderTimeout: 10 * time.Second}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		fmt.Fprintf(stderr, "server: %v\n", err)
		return 1
	case <-ctx.Done():
	}
	d.api.Close() // ends held requests, which Shutdown would wait for
	sctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		fmt.Fprintf(stderr, "server: shutdown: %v\n", err)
	}
	return 0
}
