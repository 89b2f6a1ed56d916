// Command fixtureserver serves the in-memory test API of package
// [github.com/datafetch/datafetch/test/fixture/testapi] (the sample API,
// web/sampleapi, with the routes only tests use) for tests that run outside Go's own
// process, such as browser tests under wasmbrowsertest and Node.js tests.
//
// Usage:
//
//	fixtureserver [-addr 127.0.0.1:0] [-prefix /api] [-page-size 5] [cmd args...]
//
// It listens on addr (a random port on 127.0.0.1 by default) and prints
// FIXTURE_URL=http://127.0.0.1:PORT on standard error. With a command, it runs
// the command with FIXTURE_URL added to its environment and its standard
// streams passed through, then shuts down and exits with the command's exit
// status; SIGINT and SIGTERM are passed on to the command. Without one, it
// serves until SIGINT or SIGTERM.
//
// Used as a go test exec wrapper, it gives every test binary its own server:
//
//	GOOS=js GOARCH=wasm go test -exec "fixtureserver wasmbrowsertest" ./...
//
// (build fixtureserver itself for the host, without GOOS=js.)
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
	"os/exec"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/datafetch/datafetch/test/fixture/testapi"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// shutdownTimeout bounds how long the server waits for open requests when
// it stops; a test that leaves a request hanging must not stall the run.
const shutdownTimeout = 2 * time.Second

// run is main without the process exit, so tests can drive it. It returns
// the exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("fixtureserver", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:0", "address to listen on")
	prefix := fs.String("prefix", "", "path prefix to mount the API under, such as /api")
	pageSize := fs.Int("page-size", 0, "posts per page (0: the API's default)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: fixtureserver [flags] [cmd args...]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}

	// Listen for signals before anything can fail, so a Ctrl-C during start
	// up is not lost.
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)

	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(stderr, "fixtureserver: %v\n", err)
		return 1
	}
	base := "/" + strings.Trim(*prefix, "/")
	if base == "/" {
		base = ""
	}
	fixtures := testapi.New(testapi.Options{PageSize: *pageSize, BasePath: base})
	var handler http.Handler = fixtures
	if base != "" {
		mux := http.NewServeMux()
		mux.Handle(base+"/", http.StripPrefix(base, fixtures))
		handler = mux
	}
	srv := &http.Server{Handler: handler, ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	defer func() {
		fixtures.Close() // ends held and hanging requests, which Shutdown would wait for
		ctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
		defer cancel()
		if err := srv.Shutdown(ctx); err != nil {
			srv.Close()
		}
	}()

	url := "http://" + ln.Addr().String() + base
	fmt.Fprintf(stderr, "FIXTURE_URL=%s\n", url)

	if fs.NArg() == 0 {
		select {
		case <-sigs:
			return 0
		case err := <-served:
			fmt.Fprintf(stderr, "fixtureserver: %v\n", err)
			return 1
		}
	}

	cmd := exec.Command(fs.Arg(0), fs.Args()[1:]...)
	cmd.Env = append(os.Environ(), "FIXTURE_URL="+url)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, stdout, stderr
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(stderr, "fixtureserver: %v\n", err)
		return 127
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	for {
		select {
		case sig := <-sigs:
			// The child decides how to stop; we stop when it has.
			_ = cmd.Process.Signal(sig)
		case err := <-done:
			return exitCode(err, stderr)
		}
	}
}

// exitCode turns the child's wait error into our exit status, following the
// shell's 128+signal convention for a child killed by a signal.
func exitCode(err error, stderr io.Writer) int {
	if err == nil {
		return 0
	}
	var exitErr *exec.ExitError
	if !errors.As(err, &exitErr) {
		fmt.Fprintf(stderr, "fixtureserver: %v\n", err)
		return 1
	}
	if ws, ok := exitErr.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return exitErr.ExitCode()
}
