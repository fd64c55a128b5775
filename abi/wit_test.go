package abi

import (
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// witDecl is one block of bridgeabi.wit: an interface, resource, record,
// flags or enum, with its member names in order.
type witDecl struct {
	kind, name string
	members    []string
}

var (
	witOpen   = regexp.MustCompile(`^\s*(interface|resource|record|flags|enum)\s+([a-z][a-z0-9-]*)\s*\{(.*)$`)
	witFunc   = regexp.MustCompile(`^\s*([a-z][a-z0-9-]*)\s*:\s*(static\s+)?func\b`)
	witField  = regexp.MustCompile(`^\s*([a-z][a-z0-9-]*)\s*:`)
	witMember = regexp.MustCompile(`[a-z][a-z0-9-]*`)
)

// parseWIT reads the subset of WIT that bridgeabi.wit uses.
func parseWIT(t *testing.T, path string) []witDecl {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var stack []*witDecl
	var out []witDecl
	for _, line := range strings.Split(string(src), "\n") {
		if i := strings.Index(line, "//"); i >= 0 {
			line = line[:i]
		}
		if strings.HasPrefix(strings.TrimSpace(line), "use ") {
			continue
		}
		if m := witOpen.FindStringSubmatch(line); m != nil {
			d := &witDecl{kind: m[1], name: m[2]}
			rest := m[3]
			if end := strings.Index(rest, "}"); end >= 0 { // one-line block
				d.members = witMember.FindAllString(rest[:end], -1)
				out = append(out, *d)
				continue
			}
			if d.kind == "enum" || d.kind == "flags" {
				d.members = witMember.FindAllString(rest, -1)
			}
			stack = append(stack, d)
			continue
		}
		if len(stack) == 0 {
			continue
		}
		top := stack[len(stack)-1]
		body, closed := line, false
		if i := strings.Index(line, "}"); i >= 0 {
			body, closed = line[:i], true
		}
		switch top.kind {
		case "enum", "flags":
			top.members = append(top.members, witMember.FindAllString(body, -1)...)
		case "record":
			if m := witField.FindStringSubmatch(body); m != nil {
				top.members = append(top.members, m[1])
			}
		default:
			if m := witFunc.FindStringSubmatch(body); m != nil {
				top.members = append(top.members, m[1])
			}
		}
		if closed {
			out = append(out, *top)
			stack = stack[:len(stack)-1]
		}
	}
	return out
}

func camel(kebab string) string {
	var b strings.Builder
	for _, part := range strings.Split(kebab, "-") {
		b.WriteString(strings.ToUpper(part[:1]) + part[1:])
	}
	return b.String()
}

func methodNames(t reflect.Type) []string {
	var names []string
	for i := range t.NumMethod() {
		names = append(names, t.Method(i).Name)
	}
	return names
}

func fieldNames(t reflect.Type) []string {
	var names []string
	for i := range t.NumField() {
		names = append(names, t.Field(i).Name)
	}
	return names
}

// enumCases lists the WIT names of a uint8 enum by walking values until
// String falls back to its numeric form.
func enumCases(zero interface{ String() string }) []string {
	var names []string
	v := reflect.ValueOf(zero)
	for i := range 256 {
		s := reflect.ValueOf(uint8(i)).Convert(v.Type()).Interface().(interface{ String() string }).String()
		if strings.Contains(s, "(") {
			break
		}
		names = append(names, s)
	}
	return names
}

func TestWITMatchesGo(t *testing.T) {
	goSide := map[string][]string{
		"interface host":     methodNames(reflect.TypeFor[Host]()),
		"resource cell":      methodNames(reflect.TypeFor[Cell]()),
		"record limits":      fieldNames(reflect.TypeFor[Limits]()),
		"flags capabilities": fieldNames(reflect.TypeFor[Capabilities]()),
		"record failure":     fieldNames(reflect.TypeFor[Failure]()),
		"record step":        fieldNames(reflect.TypeFor[Step]()),
		"record outcome":     fieldNames(reflect.TypeFor[Outcome]()),
		"enum output-kind":   enumCases(OutputKind(0)),
		"enum interrupt":     enumCases(Interrupt(0)),
		"enum step-status":   enumCases(StepStatus(0)),
		"enum failure-kind":  enumCases(FailureKind(0)),
		"interface engine":   methodNames(reflect.TypeFor[Engine]()),
		"interface types":    nil,
		"enum error-code":    nil,
	}
	for _, c := range ErrorCodes {
		goSide["enum error-code"] = append(goSide["enum error-code"], strings.ReplaceAll(string(c), "_", "-"))
	}
	seen := map[string]bool{}
	for _, d := range parseWIT(t, "../bridgeabi.wit") {
		key := d.kind + " " + d.name
		seen[key] = true
		want, ok := goSide[key]
		if !ok {
			t.Errorf("%s in bridgeabi.wit has no Go counterpart", key)
			continue
		}
		got := d.members
		if d.kind != "enum" {
			got = nil
			for _, m := range d.members {
				got = append(got, camel(m))
			}
		}
		if d.name == "engine" { // Engine also owns Close; the WIT resource has it.
			got = append(got, "Close")
		}
		slices.Sort(got)
		want = slices.Sorted(slices.Values(want))
		if !slices.Equal(got, want) {
			t.Errorf("%s: WIT has %v, Go has %v", key, got, want)
		}
	}
	for key := range goSide {
		if !seen[key] {
			t.Errorf("Go declares %s, bridgeabi.wit does not", key)
		}
	}
}
