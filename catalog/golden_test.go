package catalog

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// checkGolden compares files with the txtar archive at path, or rewrites the
// archive with -update. comment becomes the archive's leading comment.
func checkGolden(t *testing.T, path, comment string, files []txtar.File) {
	t.Helper()
	for i := range files {
		if d := files[i].Data; len(d) == 0 || d[len(d)-1] != '\n' {
			files[i].Data = append(d, '\n')
		}
	}
	if *update {
		a := &txtar.Archive{Comment: []byte(comment), Files: files}
		if err := os.WriteFile(path, txtar.Format(a), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	a, err := txtar.ParseFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./catalog -update to create it)", err)
	}
	want := map[string][]byte{}
	var order []string
	for _, f := range a.Files {
		want[f.Name] = f.Data
		order = append(order, f.Name)
	}
	got := map[string]bool{}
	for _, f := range files {
		got[f.Name] = true
		w, ok := want[f.Name]
		if !ok {
			t.Errorf("%s: %s is not in the golden file (run with -update)", path, f.Name)
			continue
		}
		if !bytes.Equal(w, f.Data) {
			t.Errorf("%s: %s differs (run with -update to accept):\n%s", path, f.Name, lineDiff(string(w), string(f.Data)))
		}
	}
	for _, name := range order {
		if !got[name] {
			t.Errorf("%s: %s is in the golden file but no longer produced", path, name)
		}
	}
}

// lineDiff shows the first differing line of want and got.
func lineDiff(want, got string) string {
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < max(len(wl), len(gl)); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			return fmt.Sprintf("line %d:\n  want: %q\n  got:  %q", i+1, w, g)
		}
	}
	return "(no line differs)"
}
