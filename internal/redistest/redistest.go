// Package redistest starts a real redis-server for tests: on a loopback
// port, with its files in a temporary directory, stopped when the test
// ends.
package redistest

import (
	"bufio"
	"fmt"
	"net"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// Start starts redis-server and returns its redis:// URL. A machine
// without it skips the test, saying how to get it.
func Start(t testing.TB) string {
	t.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		t.Skip("redis-server not installed; install it with: apt-get install redis-server (or make redis)")
	}
	for attempt := 0; ; attempt++ {
		url, err := start(t, bin)
		if err == nil {
			return url
		}
		if attempt == 4 {
			t.Fatalf("redis-server: %v", err)
		}
	}
}

func start(t testing.TB, bin string) (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close() // redis-server takes the port; another process may win it, then Start retries
	cmd := exec.Command(bin, "--bind", "127.0.0.1", "--port", fmt.Sprint(port), "--dir", t.TempDir(),
		"--save", "", "--appendonly", "no", "--daemonize", "no", "--loglevel", "warning")
	out, err := cmd.StdoutPipe()
	if err != nil {
		return "", err
	}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		return "", err
	}
	ready := make(chan error, 1)
	go func() {
		sc := bufio.NewScanner(out)
		var lines []string
		for sc.Scan() {
			lines = append(lines, sc.Text())
		}
		ready <- fmt.Errorf("redis-server exited: %s", strings.Join(lines, "\n"))
	}()
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); {
		select {
		case err := <-ready:
			cmd.Wait()
			return "", err
		default:
		}
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			t.Cleanup(func() {
				cmd.Process.Kill()
				cmd.Wait()
			})
			return "redis://" + addr + "/0", nil
		}
		time.Sleep(20 * time.Millisecond)
	}
	cmd.Process.Kill()
	cmd.Wait()
	return "", fmt.Errorf("redis-server did not listen on %s", addr)
}

// Pause stalls the redis-server at url for d (CLIENT PAUSE d ALL): every
// client's commands wait, as on a Redis that hangs or fails over. It
// returns when the pause has begun; the function it returns blocks until
// the server answers again.
func Pause(t testing.TB, url string, d time.Duration) (resumed func()) {
	t.Helper()
	c, err := net.Dial("tcp", strings.TrimSuffix(strings.TrimPrefix(url, "redis://"), "/0"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	r := bufio.NewReader(c)
	// A command, in RESP: an array of bulk strings.
	send := func(args ...string) string {
		t.Helper()
		cmd := fmt.Sprintf("*%d\r\n", len(args))
		for _, a := range args {
			cmd += fmt.Sprintf("$%d\r\n%s\r\n", len(a), a)
		}
		if _, err := c.Write([]byte(cmd)); err != nil {
			t.Fatal(err)
		}
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(line)
	}
	if got := send("CLIENT", "PAUSE", fmt.Sprint(d.Milliseconds()), "ALL"); got != "+OK" {
		t.Fatalf("CLIENT PAUSE: %s", got)
	}
	// This client is paused too: its PING is answered when the pause ends.
	return func() {
		t.Helper()
		if got := send("PING"); got != "+PONG" {
			t.Fatalf("PING after the pause: %s", got)
		}
	}
}
