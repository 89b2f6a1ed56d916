package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The test binary doubles as the child command: run with helperEnv set, it
// fetches a path from FIXTURE_URL, prints the body and exits with the status
// in helperExitEnv.
const (
	helperEnv     = "FIXTURESERVER_TEST_HELPER"
	helperPathEnv = "FIXTURESERVER_TEST_PATH"
	helperExitEnv = "FIXTURESERVER_TEST_EXIT"
)

func TestMain(m *testing.M) {
	if os.Getenv(helperEnv) == "1" {
		os.Exit(helperChild())
	}
	os.Exit(m.Run())
}

func helperChild() int {
	base := os.Getenv("FIXTURE_URL")
	if base == "" {
		fmt.Fprintln(os.Stderr, "helper: FIXTURE_URL is not set")
		return 90
	}
	res, err := http.Get(base + os.Getenv(helperPathEnv))
	if err != nil {
		fmt.Fprintln(os.Stderr, "helper:", err)
		return 91
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil || res.StatusCode != http.StatusOK {
		fmt.Fprintf(os.Stderr, "helper: status %d, error %v\n", res.StatusCode, err)
		return 92
	}
	os.Stdout.Write(body)
	code, _ := strconv.Atoi(os.Getenv(helperExitEnv))
	return code
}

// helperArgs are the arguments that make fixtureserver run this test binary
// as its child.
func helperArgs(t *testing.T, path string, exit int) []string {
	t.Setenv(helperEnv, "1")
	t.Setenv(helperPathEnv, path)
	t.Setenv(helperExitEnv, strconv.Itoa(exit))
	// A -race child otherwise sleeps a second before exiting 0.
	t.Setenv("GORACE", strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0"))
	return []string{os.Args[0], "-test.run=^$"}
}

func TestRunWithCommand(t *testing.T) {
	tests := []struct {
		name   string
		flags  []string
		path   string
		exit   int
		prefix string // expected at the end of FIXTURE_URL
	}{
		{"exit 0", nil, "/comments/1", 0, ""},
		{"exit status passed on", nil, "/profiles/2", 7, ""},
		{"prefix", []string{"-prefix", "/api"}, "/articles/1", 0, "/api"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			args := append(append([]string{}, tt.flags...), helperArgs(t, tt.path, tt.exit)...)
			code := run(args, strings.NewReader(""), &stdout, &stderr)
			require.Equal(t, tt.exit, code, "stderr: %s", stderr.String())
			assert.Contains(t, stdout.String(), `"id":`, "the child's stdout is passed through")
			assert.Regexp(t, `(?m)^FIXTURE_URL=http://127\.0\.0\.1:\d+`+tt.prefix+`$`, stderr.String())
		})
	}
}

func TestRunErrors(t *testing.T) {
	var stderr bytes.Buffer
	assert.Equal(t, 127, run([]string{"/nonexistent/command"}, nil, io.Discard, &stderr))
	assert.Contains(t, stderr.String(), "fixtureserver:")

	stderr.Reset()
	assert.Equal(t, 2, run([]string{"-no-such-flag"}, nil, io.Discard, &stderr))
	assert.Equal(t, 1, run([]string{"-addr", "256.0.0.1:0"}, nil, io.Discard, &stderr))
}

// buildBinary compiles the command, so the tests below exercise the real
// process: flags, signals and exit status.
func buildBinary(t *testing.T) string {
	t.Helper()
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go command not found:", err)
	}
	bin := filepath.Join(t.TempDir(), "fixtureserver")
	out, err := exec.Command(goCmd, "build", "-o", bin, ".").CombinedOutput()
	require.NoError(t, err, "go build: %s", out)
	return bin
}

func TestBinary(t *testing.T) {
	bin := buildBinary(t)

	t.Run("runs a command", func(t *testing.T) {
		cmd := exec.Command(bin, helperArgs(t, "/users/3", 3)...)
		var stdout bytes.Buffer
		cmd.Stdout = &stdout
		err := cmd.Run()
		var exitErr *exec.ExitError
		require.ErrorAs(t, err, &exitErr)
		assert.Equal(t, 3, exitErr.ExitCode())
		assert.Contains(t, stdout.String(), `"id":3`)
	})

	t.Run("serves until interrupted", func(t *testing.T) {
		cmd := exec.Command(bin)
		stderr, err := cmd.StderrPipe()
		require.NoError(t, err)
		require.NoError(t, cmd.Start())
		t.Cleanup(func() { _ = cmd.Process.Kill() })

		line, err := bufio.NewReader(stderr).ReadString('\n')
		require.NoError(t, err)
		url, ok := strings.CutPrefix(strings.TrimSpace(line), "FIXTURE_URL=")
		require.True(t, ok, "first line: %q", line)

		res, err := http.Get(url + "/current_user/")
		require.NoError(t, err)
		res.Body.Close()
		assert.Equal(t, http.StatusOK, res.StatusCode)

		require.NoError(t, cmd.Process.Signal(syscall.SIGINT))
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			assert.NoError(t, err, "exit status 0 on SIGINT")
		case <-time.After(3 * time.Minute): // a hang guard, not a speed check
			t.Fatal("fixtureserver did not stop on SIGINT")
		}
	})
}
